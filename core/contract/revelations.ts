import type { Hex } from "viem";

/**
 * Pyth's public revelation service (Fortuna) and our local one speak the same HTTP:
 * `GET <base>/v1/chains/<chain>/revelations/<sequence>?encoding=hex` answers
 * `{ "value": { "data": "<32 bytes in hex>", "encoding": "hex" } }` once the request is on chain and
 * past the provider's reveal delay, and an error status before. A deployment names its service as
 * `<base>/v1/chains/<chain>`; the provider's revelation for a request, with the user's number from
 * Entropy's `Requested` event, is what `revealWithCallback` needs to deliver a stalled request.
 */

/** Pyth's Fortuna for the default provider, per chain id (Pyth's Entropy docs, "Fortuna"). */
export const FORTUNA_SERVICES: Readonly<Record<number, string>> = {
  8453: "https://fortuna.dourolabs.app/v1/chains/base",
  42161: "https://fortuna.dourolabs.app/v1/chains/arbitrum",
  84532: "https://fortuna-staging.dourolabs.app/v1/chains/base-sepolia",
  421614: "https://fortuna-staging.dourolabs.app/v1/chains/arbitrum-sepolia",
};

/** The service's URL of one request's revelation. */
export function revelationUrl(service: string, sequenceNumber: bigint): string {
  return `${service.replace(/\/+$/, "")}/revelations/${sequenceNumber}?encoding=hex`;
}

/** The revelation in a service's answer, as bytes32; throws on any other shape. */
export function parseRevelation(body: unknown): Hex {
  const value = (body as { value?: { data?: unknown; encoding?: unknown } } | null)?.value;
  const data = value?.data;
  if (typeof data !== "string" || (value?.encoding ?? "hex") !== "hex") {
    throw new Error("the revelation service answered without a hex revelation");
  }
  const hex = data.startsWith("0x") ? data.slice(2) : data;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("the revelation is not 32 bytes");
  return `0x${hex.toLowerCase()}`;
}

/** The body a service answers with (our local one uses it). */
export function revelationBody(revelation: Hex): { value: { data: string; encoding: "hex" } } {
  return { value: { data: revelation.slice(2), encoding: "hex" } };
}

/**
 * Fetches one request's revelation; undefined while the service does not serve it yet (not seen,
 * or within the reveal delay). Network failures throw.
 */
export async function fetchRevelation(
  service: string,
  sequenceNumber: bigint,
  fetchImpl: typeof fetch = fetch,
): Promise<Hex | undefined> {
  const response = await fetchImpl(revelationUrl(service, sequenceNumber));
  if (!response.ok) return undefined;
  return parseRevelation(await response.json());
}

/**
 * What delivering a request takes of Entropy (the same on Pyth's contract and our model):
 * `function revealWithCallback(address provider, uint64 sequenceNumber, bytes32 userRandomNumber,
 * bytes32 providerRevelation)`. As JSON, not human-readable ABI: parsing signatures at start-up
 * costs a phone's first load (revelations.test.ts checks it against the signature).
 */
export const entropyRevealAbi = [
  {
    type: "function",
    name: "revealWithCallback",
    stateMutability: "nonpayable",
    inputs: [
      { name: "provider", type: "address" },
      { name: "sequenceNumber", type: "uint64" },
      { name: "userRandomNumber", type: "bytes32" },
      { name: "providerRevelation", type: "bytes32" },
    ],
    outputs: [],
  },
] as const;

/**
 * What clearing a provider's backlog takes of Entropy (Pyth's contract and our model alike): the
 * provider's state (`getProviderInfoV2`: its next sequence number, its current commitment's, its
 * `maxNumHashes`), a request as stored (`getRequestV2`: how the local revelation service sees a request
 * made without a callback, which has no V2 event), and `advanceProviderCommitment(provider,
 * advancedSequenceNumber, providerRevelation)`, which anyone may call with the provider's public
 * revelation. Pyth's published ABI (the SDK's `abis/IEntropy.json`) less its internal types;
 * test/entropyModel.test.ts checks it against that file.
 */
export const entropyBacklogAbi = [
  {
    type: "function",
    name: "getProviderInfoV2",
    stateMutability: "view",
    inputs: [
      {
        name: "provider",
        type: "address",
      },
    ],
    outputs: [
      {
        components: [
          {
            name: "feeInWei",
            type: "uint128",
          },
          {
            name: "accruedFeesInWei",
            type: "uint128",
          },
          {
            name: "originalCommitment",
            type: "bytes32",
          },
          {
            name: "originalCommitmentSequenceNumber",
            type: "uint64",
          },
          {
            name: "commitmentMetadata",
            type: "bytes",
          },
          {
            name: "uri",
            type: "bytes",
          },
          {
            name: "endSequenceNumber",
            type: "uint64",
          },
          {
            name: "sequenceNumber",
            type: "uint64",
          },
          {
            name: "currentCommitment",
            type: "bytes32",
          },
          {
            name: "currentCommitmentSequenceNumber",
            type: "uint64",
          },
          {
            name: "feeManager",
            type: "address",
          },
          {
            name: "maxNumHashes",
            type: "uint32",
          },
          {
            name: "defaultGasLimit",
            type: "uint32",
          },
        ],
        name: "info",
        type: "tuple",
      },
    ],
  },
  {
    type: "function",
    name: "getRequestV2",
    stateMutability: "view",
    inputs: [
      {
        name: "provider",
        type: "address",
      },
      {
        name: "sequenceNumber",
        type: "uint64",
      },
    ],
    outputs: [
      {
        components: [
          {
            name: "provider",
            type: "address",
          },
          {
            name: "sequenceNumber",
            type: "uint64",
          },
          {
            name: "numHashes",
            type: "uint32",
          },
          {
            name: "commitment",
            type: "bytes32",
          },
          {
            name: "blockNumber",
            type: "uint64",
          },
          {
            name: "requester",
            type: "address",
          },
          {
            name: "useBlockhash",
            type: "bool",
          },
          {
            name: "callbackStatus",
            type: "uint8",
          },
          {
            name: "gasLimit10k",
            type: "uint16",
          },
        ],
        name: "req",
        type: "tuple",
      },
    ],
  },
  {
    type: "function",
    name: "advanceProviderCommitment",
    stateMutability: "nonpayable",
    inputs: [
      {
        name: "provider",
        type: "address",
      },
      {
        name: "advancedSequenceNumber",
        type: "uint64",
      },
      {
        name: "providerRevelation",
        type: "bytes32",
      },
    ],
    outputs: [],
  },
] as const;

/**
 * Entropy V2's `Requested` event: it carries the user's number a delivery must repeat.
 * `event Requested(address indexed provider, address indexed caller, uint64 indexed
 * sequenceNumber, bytes32 userContribution, uint32 gasLimit, bytes extraArgs)`.
 */
export const entropyRequestedEvent = {
  type: "event",
  name: "Requested",
  inputs: [
    { name: "provider", type: "address", indexed: true },
    { name: "caller", type: "address", indexed: true },
    { name: "sequenceNumber", type: "uint64", indexed: true },
    { name: "userContribution", type: "bytes32" },
    { name: "gasLimit", type: "uint32" },
    { name: "extraArgs", type: "bytes" },
  ],
} as const;

/**
 * How long an accepted request may wait before the app and the hall's keeper deliver it themselves
 * (seconds of chain time): well past a provider's usual answer (seconds), so that they rarely race
 * its keeper, and far inside any call-off window.
 */
export const STALLED_AFTER_SECONDS = 30;
