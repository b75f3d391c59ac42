import {
  getAddress,
  keccak256,
  parseAbiItem,
  parseEventLogs,
  toHex,
  type Address,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from "viem";
import type { NetworkConnection } from "hardhat/types/network";
import type { ContractReturnType, WalletClient } from "@nomicfoundation/hardhat-viem/types";

/**
 * Our Entropy model (contracts/test/EntropyModel.sol) from the tests' side: deploy it, register a
 * provider on a keccak hash chain, and reveal a request as the provider's keeper would, with the
 * chain's value for its sequence number and the user's number from its Requested event.
 */

export type EntropyModelContract = ContractReturnType<"EntropyModel">;
type Viem = NetworkConnection["viem"];

/** Entropy V2's Requested (the contract also emits the deprecated events, some of the same name). */
export const REQUESTED_V2 = parseAbiItem(
  "event Requested(address indexed provider, address indexed caller, uint64 indexed sequenceNumber, bytes32 userContribution, uint32 gasLimit, bytes extraArgs)",
);
/** Entropy V2's Revealed. */
export const REVEALED_V2 = parseAbiItem(
  "event Revealed(address indexed provider, address indexed caller, uint64 indexed sequenceNumber, bytes32 randomNumber, bytes32 userContribution, bytes32 providerContribution, bool callbackFailed, bytes callbackReturnValue, uint32 callbackGasUsed, bytes extraArgs)",
);

/** Entropy's older Requested, the only event of a request without a callback (`request`). */
export const REQUESTED_V1 = parseAbiItem(
  "event Requested((address provider, uint64 sequenceNumber, uint32 numHashes, bytes32 commitment, uint64 blockNumber, address requester, bool useBlockhash, bool isRequestWithCallback) request)",
);

/** The protocol's fee and the provider's, as `deployEntropyModel` sets them unless told. */
export const MODEL_PYTH_FEE = 1_000_000_000n;
export const MODEL_PROVIDER_FEE = 2_000_000_000n;
export const MODEL_DEFAULT_GAS_LIMIT = 100_000;
export const MODEL_CHAIN_LENGTH = 2_000;
export const MODEL_MAX_NUM_HASHES = 500;

/** A chain registered with the model: its values and the sequence number its commitment holds. */
export interface RegisteredChain {
  /** values[k] is the revelation for sequence commitmentSequence + k; values[0] is the commitment. */
  values: Hex[];
  commitmentSequence: bigint;
  /** The registration's transaction: a fixture's rollback can take it (and the chain) back. */
  registeredIn?: Hash;
}

export interface EntropyModel {
  contract: EntropyModelContract;
  address: Address;
  publicClient: Awaited<ReturnType<Viem["getPublicClient"]>>;
  /** Every chain each provider registered, latest last (a rotation adds one). */
  chains: Map<Address, RegisteredChain[]>;
}

/**
 * The hash chain of `length` values from `seed`: keccak applied length - 1 times gives the
 * commitment. Returned commitment first, so values[k] hashed k times is values[0].
 */
export function hashChain(seed: Hex, length: number): Hex[] {
  const fromSeed: Hex[] = [seed];
  for (let i = 1; i < length; i++) fromSeed.push(keccak256(fromSeed[i - 1]));
  return fromSeed.reverse();
}

export interface ProviderOptions {
  fee?: bigint;
  chainLength?: number;
  seed?: Hex;
  defaultGasLimit?: number;
  /** 0 for no limit. */
  maxNumHashes?: number;
}

export interface ModelOptions extends ProviderOptions {
  pythFee?: bigint;
}

/** Deploys the model with `provider` as its default provider, registered on a fresh chain. */
export async function deployEntropyModel(
  viem: Viem,
  provider: WalletClient,
  o: ModelOptions = {},
): Promise<EntropyModel> {
  const contract = await viem.deployContract("EntropyModel", [
    o.pythFee ?? MODEL_PYTH_FEE,
    provider.account.address,
  ]);
  const model: EntropyModel = {
    contract,
    address: contract.address,
    publicClient: await viem.getPublicClient(),
    chains: new Map(),
  };
  await registerProvider(model, provider, o);
  return model;
}

async function mined(m: EntropyModel, hash: Promise<Hash> | Hash): Promise<TransactionReceipt> {
  const receipt = await m.publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success")
    throw new Error(`transaction ${receipt.transactionHash} reverted`);
  return receipt;
}

/**
 * Registers `provider` (or rotates its chain) on a chain of `chainLength` values from `seed`, then
 * sets its default callback gas limit and maxNumHashes. Returns the chain as registered.
 */
export async function registerProvider(
  m: EntropyModel,
  provider: WalletClient,
  o: ProviderOptions = {},
): Promise<RegisteredChain> {
  const address = getAddress(provider.account.address);
  const length = o.chainLength ?? MODEL_CHAIN_LENGTH;
  const seed =
    o.seed ??
    keccak256(toHex(`entropy model seed ${address} ${m.chains.get(address)?.length ?? 0}`));
  const values = hashChain(seed, length);
  const before = await m.contract.read.getProviderInfoV2([address]).catch(() => undefined);
  const account = provider.account;
  const registered = await mined(
    m,
    m.contract.write.register(
      [o.fee ?? MODEL_PROVIDER_FEE, values[0], "0x", BigInt(length), "0x"],
      {
        account,
      },
    ),
  );
  await mined(
    m,
    m.contract.write.setDefaultGasLimit([o.defaultGasLimit ?? MODEL_DEFAULT_GAS_LIMIT], {
      account,
    }),
  );
  await mined(
    m,
    m.contract.write.setMaxNumHashes([o.maxNumHashes ?? MODEL_MAX_NUM_HASHES], { account }),
  );
  const chain: RegisteredChain = {
    values,
    commitmentSequence: before?.sequenceNumber ?? 0n,
    registeredIn: registered.transactionHash,
  };
  m.chains.set(address, [...(m.chains.get(address) ?? []), chain]);
  return chain;
}

/**
 * The provider's revelation for a sequence number, from the latest chain that covers it. Use
 * `revelationOnChain` where a fixture may have rolled back a rotation the helper still remembers.
 */
export function revelationFor(m: EntropyModel, provider: Address, sequenceNumber: bigint): Hex {
  return revelationIn(m.chains.get(getAddress(provider)) ?? [], provider, sequenceNumber);
}

function revelationIn(chains: RegisteredChain[], provider: Address, sequenceNumber: bigint): Hex {
  for (let i = chains.length - 1; i >= 0; i--) {
    const { values, commitmentSequence } = chains[i];
    const k = sequenceNumber - commitmentSequence;
    if (k > 0n && k < BigInt(values.length)) return values[Number(k)];
  }
  throw new Error(`no registered chain of ${provider} covers sequence ${sequenceNumber}`);
}

/**
 * The revelation for a sequence number from the latest chain that covers it among those still on
 * chain (a fixture's rollback may have taken back a rotation this helper remembers).
 */
export async function revelationOnChain(
  m: EntropyModel,
  provider: Address,
  sequenceNumber: bigint,
): Promise<Hex> {
  const live: RegisteredChain[] = [];
  for (const chain of m.chains.get(getAddress(provider)) ?? []) {
    const stillThere =
      !chain.registeredIn ||
      (await m.publicClient
        .getTransactionReceipt({ hash: chain.registeredIn })
        .then(() => true)
        .catch(() => false));
    if (stillThere) live.push(chain);
  }
  return revelationIn(live, provider, sequenceNumber);
}

/** The user's number a request was made with, from the model's Requested event. */
export async function userRandomOf(
  m: EntropyModel,
  provider: Address,
  sequenceNumber: bigint,
): Promise<Hex> {
  const [found] = await m.publicClient.getLogs({
    address: m.address,
    event: REQUESTED_V2,
    args: { provider, sequenceNumber },
    fromBlock: 0n,
  });
  if (!found) throw new Error(`no request ${sequenceNumber} of ${provider}`);
  return found.args.userContribution!;
}

/** The (provider, sequence number) of every request the model took in a transaction. */
export function requestsIn(m: EntropyModel, receipt: TransactionReceipt) {
  return parseEventLogs({ abi: [REQUESTED_V2], logs: receipt.logs })
    .filter((log) => getAddress(log.address) === getAddress(m.address))
    .map((log) => ({
      provider: log.args.provider,
      sequenceNumber: log.args.sequenceNumber,
      userRandom: log.args.userContribution,
    }));
}

/** The (provider, sequence number) of every older request (`request`, no callback) in a transaction. */
export function olderRequestsIn(m: EntropyModel, receipt: TransactionReceipt) {
  return parseEventLogs({ abi: [REQUESTED_V1], logs: receipt.logs })
    .filter((log) => getAddress(log.address) === getAddress(m.address))
    .map((log) => log.args.request);
}

let olderRequests = 0;

/**
 * A request through Entropy's older path (`request`: no callback; only its requester may reveal it),
 * as a flooder sends it: the user's number is a fresh secret nobody ever reveals. Returns its
 * sequence number.
 */
export async function requestWithoutCallback(
  m: EntropyModel,
  requester: WalletClient,
  provider: Address,
  o: { secret?: Hex; gas?: bigint } = {},
): Promise<{ sequenceNumber: bigint; receipt: TransactionReceipt }> {
  const secret = o.secret ?? keccak256(toHex(`no callback ${++olderRequests}`));
  const fee = await m.contract.read.getFee([provider]);
  const receipt = await mined(
    m,
    m.contract.write.request([provider, keccak256(secret), false], {
      account: requester.account,
      value: fee,
      ...(o.gas ? { gas: o.gas } : {}),
    }),
  );
  const [request] = olderRequestsIn(m, receipt);
  return { sequenceNumber: request.sequenceNumber, receipt };
}

/**
 * Sends advanceProviderCommitment to `sequenceNumber` with the chain's revelation for it, as the
 * provider's keeper does (anyone may), unawaited.
 */
export async function advanceTx(
  m: EntropyModel,
  provider: Address,
  sequenceNumber: bigint,
  o: RevealOptions = {},
): Promise<Hash> {
  const revelation = o.providerRevelation ?? (await revelationOnChain(m, provider, sequenceNumber));
  return m.contract.write.advanceProviderCommitment([provider, sequenceNumber, revelation], {
    ...(o.account ? { account: o.account } : {}),
    ...(o.gas ? { gas: o.gas } : {}),
  });
}

/** The V2 Revealed events of a transaction (the model's, decoded). */
export function revealedIn(m: EntropyModel, receipt: TransactionReceipt) {
  return parseEventLogs({ abi: [REVEALED_V2], logs: receipt.logs })
    .filter((log) => getAddress(log.address) === getAddress(m.address))
    .map((log) => log.args);
}

export interface RevealOptions {
  /** Who sends the reveal (anyone may); by default the public client's first wallet. */
  account?: WalletClient["account"];
  gas?: bigint;
  /** A revelation other than the chain's (to see the model refuse it). */
  providerRevelation?: Hex;
}

/** Sends revealWithCallback for a request, unawaited, as the provider's keeper would. */
export async function revealTx(
  m: EntropyModel,
  provider: Address,
  sequenceNumber: bigint,
  o: RevealOptions = {},
): Promise<Hash> {
  const userRandom = await userRandomOf(m, provider, sequenceNumber);
  const revelation = o.providerRevelation ?? (await revelationOnChain(m, provider, sequenceNumber));
  return m.contract.write.revealWithCallback([provider, sequenceNumber, userRandom, revelation], {
    ...(o.account ? { account: o.account } : {}),
    ...(o.gas ? { gas: o.gas } : {}),
  });
}

/** Reveals a request and waits for it; fails if the reveal reverted. */
export async function revealRequest(
  m: EntropyModel,
  provider: Address,
  sequenceNumber: bigint,
  o: RevealOptions = {},
): Promise<TransactionReceipt> {
  return mined(m, revealTx(m, provider, sequenceNumber, o));
}

/** The random number the model delivers for a request: keccak256(user, provider, bytes32(0)). */
export async function randomNumberOf(
  m: EntropyModel,
  provider: Address,
  sequenceNumber: bigint,
): Promise<Hex> {
  const userRandom = await userRandomOf(m, provider, sequenceNumber);
  return m.contract.read.combineRandomValues([
    userRandom,
    await revelationOnChain(m, provider, sequenceNumber),
    `0x${"00".repeat(32)}`,
  ]);
}

/** The fee the model charges a provider's request with `gasLimit` (provider + protocol). */
export async function modelFee(
  m: EntropyModel,
  provider: Address,
  gasLimit: number,
): Promise<bigint> {
  return m.contract.read.getFeeV2([provider, gasLimit]);
}
