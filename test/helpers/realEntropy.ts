import assert from "node:assert/strict";
import {
  concat,
  encodeFunctionData,
  encodePacked,
  getAddress,
  keccak256,
  maxUint256,
  parseEventLogs,
  toHex,
  zeroHash,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem";
import type { NetworkConnection } from "hardhat/types/network";
import type { ContractReturnType, WalletClient } from "@nomicfoundation/hardhat-viem/types";
import {
  FEE_BPS,
  FOREIGN_ERRORS,
  NATIVE,
  NATIVE_MAX_BET,
  NATIVE_MIN_BET,
  TOKEN_MAX_BET,
  TOKEN_MIN_BET,
  hallEvent,
  send,
  type Hall,
} from "./hall.ts";

/**
 * DiceHall on Pyth's real Entropy contract (contracts/vendor/pyth-entropy, behind an ERC1967 proxy
 * as Pyth deploys it), with providers that commit to real keccak hash chains and answer requests
 * through `revealWithCallback`, as Pyth's keeper (Fortuna) does.
 *
 * The Hall it builds works with hall.ts's lobby, score and view helpers; rolls go through
 * `requestRealRoll` / `revealRoll` here, never hall.ts's `reveal` (that one is MockEntropy's).
 */

export type RealEntropy = ContractReturnType<"ProxiedEntropy">;

/** What Pyth keeps per request, in wei. */
export const PYTH_FEE = 3_000_000_000n;
/** What a provider of these tests charges per request up to its default callback gas. */
export const PROVIDER_FEE = 5_000_000_000n;
/** The callback gas a provider's fee covers (Fortuna's providers set one; it turns on CallbackFailed). */
export const PROVIDER_GAS_LIMIT = 100_000;
/** Values a provider commits to at registration, the commitment included. */
export const CHAIN_LENGTH = 256;

/** Request.callbackStatus values (EntropyStatusConstants). */
export const CALLBACK = { NotStarted: 1, InProgress: 2, Failed: 3 } as const;

/**
 * A provider's hash chain: x[n-1] is secret, x[i] = keccak256(x[i+1]), x[0] is the commitment.
 * Sequence number `base + i` is answered with x[i]; Entropy checks it by hashing it back to the
 * last value revealed on chain.
 */
export class HashChain {
  readonly values: Hex[];
  constructor(
    seed: string,
    length: number,
    /** The provider's sequence number when it registered this chain (its commitment's). */
    readonly base: bigint,
  ) {
    this.values = new Array<Hex>(length);
    let x = keccak256(toHex(seed));
    for (let i = length - 1; i >= 0; i--) {
      this.values[i] = x;
      x = keccak256(x);
    }
  }
  get commitment(): Hex {
    return this.values[0];
  }
  covers(sequence: bigint): boolean {
    return sequence > this.base && sequence < this.base + BigInt(this.values.length);
  }
  revelation(sequence: bigint): Hex {
    assert.ok(this.covers(sequence), `sequence ${sequence} is not on this chain`);
    return this.values[Number(sequence - this.base)];
  }
}

export interface Provider {
  wallet: WalletClient;
  address: Address;
  /** Every chain it registered, newest last (a re-registration rotates the commitment). */
  chains: HashChain[];
}

/** The provider's own number for one of its sequence numbers, from the chain that covers it. */
export function providerRevelation(p: Provider, sequence: bigint): Hex {
  const chain = [...p.chains].reverse().find((c) => c.covers(sequence));
  assert.ok(chain, `${p.address} has no chain for sequence ${sequence}`);
  return chain.revelation(sequence);
}

/** Deploys ProxiedEntropy behind OpenZeppelin's ERC1967Proxy and initializes it as Pyth does. */
export async function deployRealEntropy(
  viem: NetworkConnection["viem"],
  admin: Address,
  defaultProvider: Address,
  pythFee: bigint = PYTH_FEE,
): Promise<RealEntropy> {
  const implementation = await viem.deployContract("ProxiedEntropy");
  const init = encodeFunctionData({
    abi: implementation.abi,
    functionName: "initialize",
    // Pyth's deployments prefill the request slots, so a request rewrites a slot instead of creating one.
    args: [admin, pythFee, defaultProvider, true],
  });
  const proxy = await viem.deployContract("ERC1967Proxy", [implementation.address, init]);
  return viem.getContractAt("ProxiedEntropy", proxy.address);
}

export interface ProviderOptions {
  fee?: bigint;
  chainLength?: number;
  defaultGasLimit?: number;
  seed?: string;
}

/** Registers (or re-registers, rotating its chain) `wallet` as a provider with a fresh hash chain. */
export async function registerProvider(
  publicClient: Hall["publicClient"],
  entropy: RealEntropy,
  wallet: WalletClient,
  o: ProviderOptions = {},
  existing?: Provider,
): Promise<Provider> {
  const address = getAddress(wallet.account.address);
  const before = await entropy.read.getProviderInfoV2([address]);
  const chain = new HashChain(
    o.seed ?? `${address}:${before.sequenceNumber}`,
    o.chainLength ?? CHAIN_LENGTH,
    before.sequenceNumber,
  );
  const wait = async (hash: Promise<Hex>) => {
    const r = await publicClient.waitForTransactionReceipt({ hash: await hash });
    assert.equal(r.status, "success");
  };
  await wait(
    entropy.write.register(
      [o.fee ?? PROVIDER_FEE, chain.commitment, "0x", BigInt(chain.values.length), "0x"],
      { account: wallet.account },
    ),
  );
  const gasLimit = o.defaultGasLimit ?? PROVIDER_GAS_LIMIT;
  if (gasLimit !== 0) {
    await wait(entropy.write.setDefaultGasLimit([gasLimit], { account: wallet.account }));
  }
  const provider = existing ?? { wallet, address, chains: [] };
  provider.chains.push(chain);
  return provider;
}

// ---------------------------------------------------------------------------------- hall

export interface RealHall extends Hall {
  real: RealEntropy;
  /** The default provider, registered before the hall was deployed; the hall starts on it. */
  providerA: Provider;
  /** A second provider, registered, not used until a test switches to it. */
  providerB: Provider;
  /** Sends revealWithCallback, as the provider's keeper; any account may. */
  keeper: WalletClient;
}

/**
 * A configured hall (native coin and Test USD allowed, house fee FEE_BPS) on the real Entropy.
 * Wallets: as hall.ts, with wallets[9] provider A, wallets[8] provider B and wallets[7] the keeper.
 */
export async function realHallFixture(connection: NetworkConnection): Promise<RealHall> {
  const { viem, networkHelpers } = connection;
  const wallets = await viem.getWalletClients();
  const publicClient = await viem.getPublicClient();
  const [owner, alice, bob, carol, dave, erin, stranger] = wallets;
  const keeper = wallets[7];

  const real = await deployRealEntropy(viem, owner.account.address, wallets[9].account.address);
  const providerA = await registerProvider(publicClient, real, wallets[9], { seed: "provider A" });
  const providerB = await registerProvider(publicClient, real, wallets[8], { seed: "provider B" });

  const hall = await viem.deployContract("DiceHall", [real.address, owner.account.address]);
  const token = await viem.deployContract("TestToken");
  const h: RealHall = {
    connection,
    viem,
    networkHelpers,
    publicClient,
    hall,
    hallErrors: { abi: [...hall.abi, ...FOREIGN_ERRORS], address: hall.address },
    // hall.ts's Hall names a MockEntropy here; nothing of this file's reads it (see the note above).
    entropy: real as unknown as Hall["entropy"],
    entropyKind: "mock",
    token,
    provider: providerA.address,
    owner,
    alice,
    bob,
    carol,
    dave,
    erin,
    stranger,
    players: [alice, bob, carol, dave, erin],
    wallets,
    real,
    providerA,
    providerB,
    keeper,
  };
  for (const w of [alice, bob, carol, dave, erin, stranger]) {
    await send(h, token.write.mint([w.account.address, 10n ** 12n]));
    await send(h, token.write.approve([hall.address, maxUint256], { account: w.account }));
  }
  await send(h, hall.write.setTokenConfig([NATIVE, true, NATIVE_MIN_BET, NATIVE_MAX_BET]));
  await send(h, hall.write.setTokenConfig([token.address, true, TOKEN_MIN_BET, TOKEN_MAX_BET]));
  await send(h, hall.write.setHouseFee([FEE_BPS]));
  return h;
}

// ---------------------------------------------------------------------------------- rolls

/** What Entropy recorded about one request, from its Requested event. */
export interface EntropyRequest {
  provider: Address;
  sequenceNumber: bigint;
  /** DiceHall's own contribution to the number; the keeper needs it to reveal. */
  userContribution: Hex;
  /** The callback gas Entropy will give: the game's limit, or the provider's default if higher. */
  gasLimit: number;
}

/** Entropy's events of one name in a receipt, decoded. */
export function entropyEvents(h: RealHall, receipt: TransactionReceipt, eventName: string) {
  const logs = parseEventLogs({
    abi: h.real.abi,
    logs: receipt.logs,
    eventName: eventName as never,
  }) as unknown as { address: Address; args: Record<string, any> }[];
  return logs
    .filter((l) => getAddress(l.address) === getAddress(h.real.address))
    .map((l) => l.args);
}

/** The one Entropy V2 `Requested` event in a receipt (V1 has an event of the same name). */
export function entropyRequest(h: RealHall, receipt: TransactionReceipt): EntropyRequest {
  const found = entropyEvents(h, receipt, "Requested").filter((a) => "userContribution" in a);
  assert.equal(found.length, 1, `expected one Entropy request, got ${found.length}`);
  const a = found[0];
  return {
    provider: getAddress(a.provider),
    sequenceNumber: a.sequenceNumber,
    userContribution: a.userContribution,
    gasLimit: Number(a.gasLimit),
  };
}

/** roll(gameId, keepMask) paying the game's own roll fee (plus `extra`), unsent. */
export function realRollTx(
  h: RealHall,
  gameId: bigint,
  player: WalletClient,
  keepMask: number,
  extra = 0n,
) {
  return (async () => {
    const fee = await h.hall.read.gameRollFee([gameId]);
    return h.hall.write.roll([gameId, keepMask], { account: player.account, value: fee + extra });
  })();
}

/** Asks for a roll and returns what DiceHall and Entropy recorded about it. */
export async function requestRealRoll(
  h: RealHall,
  gameId: bigint,
  player: WalletClient,
  keepMask: number,
  extra = 0n,
): Promise<{ request: EntropyRequest; receipt: TransactionReceipt }> {
  const receipt = await send(h, realRollTx(h, gameId, player, keepMask, extra));
  const requested = hallEvent(h, receipt, "RollRequested");
  const request = entropyRequest(h, receipt);
  assert.equal(requested.sequenceNumber, request.sequenceNumber);
  assert.equal(Number(requested.keepMask), keepMask);
  return { request, receipt };
}

/** Entropy's number for a request: keccak256(user ‖ provider ‖ blockhash), blockhash unused (0). */
export function combinedRandom(userContribution: Hex, providerContribution: Hex): Hex {
  return keccak256(concat([userContribution, providerContribution, zeroHash]));
}

/** The provider's keeper answers a request through revealWithCallback. */
export function revealTx(h: RealHall, p: Provider, request: EntropyRequest) {
  assert.equal(request.provider, p.address, "the request went to another provider");
  return h.real.write.revealWithCallback(
    [
      p.address,
      request.sequenceNumber,
      request.userContribution,
      providerRevelation(p, request.sequenceNumber),
    ],
    { account: h.keeper.account },
  );
}

export async function revealRoll(
  h: RealHall,
  p: Provider,
  request: EntropyRequest,
): Promise<TransactionReceipt> {
  return send(h, revealTx(h, p, request));
}

export function providerById(h: RealHall, address: Address): Provider {
  for (const p of [h.providerA, h.providerB]) if (p.address === getAddress(address)) return p;
  throw new Error(`no test provider at ${address}`);
}

// ---------------------------------------------------------------------------------- Entropy's storage

/**
 * Entropy's storage (EntropyState): admin at slot 0, the fees at 1, the default provider at 2, then
 * 32 request slots of 3 words each from slot 3; a request's third word packs, from the low end,
 * blockNumber (64 bits), requester (160), useBlockhash (8), callbackStatus (8), gasLimit10k (16).
 */
const REQUESTS_SLOT = 3n;
const REQUEST_WORDS = 3n;

/** Which of Entropy's 32 request slots a request of (provider, sequence) goes to. */
export function requestSlotIndex(provider: Address, sequence: bigint): number {
  const key = keccak256(encodePacked(["address", "uint64"], [provider, sequence]));
  return parseInt(key.slice(2, 4), 16) & 0x1f;
}

/**
 * Rewrites the callback gas an in-flight request recorded, so that its callback runs out of gas.
 * DiceHall's floor keeps its limit far above what its callback needs, so this is the one way to see
 * Entropy's CallbackFailed path with DiceHall on the other end.
 */
export async function starveCallback(h: RealHall, request: EntropyRequest, gasLimit10k: number) {
  const index = BigInt(requestSlotIndex(request.provider, request.sequenceNumber));
  const first = REQUESTS_SLOT + index * REQUEST_WORDS;
  const slot = first + 2n;
  const read = async (at: bigint) =>
    BigInt(
      (await h.publicClient.getStorageAt({ address: h.real.address, slot: toHex(at) })) ?? "0x0",
    );
  // The request's first word: provider (low 160 bits), then its sequence number (64 bits).
  const head = await read(first);
  assert.equal(
    (head >> 160n) & ((1n << 64n) - 1n),
    request.sequenceNumber,
    "the request is in the array",
  );
  const stored = await h.real.read.getRequestV2([request.provider, request.sequenceNumber]);
  const word = await read(slot);
  assert.equal(Number(word >> 240n), stored.gasLimit10k, "the slot layout is EntropyState's");
  const rewritten = (word & ((1n << 240n) - 1n)) | (BigInt(gasLimit10k) << 240n);
  await h.networkHelpers.setStorageAt(h.real.address, slot, toHex(rewritten, { size: 32 }));
  const after = await h.real.read.getRequestV2([request.provider, request.sequenceNumber]);
  assert.equal(after.gasLimit10k, gasLimit10k);
}
