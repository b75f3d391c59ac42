// What the operator tasks do, on plain viem clients so that tests can drive it without the CLI.
// scripts/tasks/index.ts defines the `hardhat dicehall ...` tasks; scripts/tasks/actions.ts
// connects them to the network chosen with --network.
import {
  erc20Abi,
  formatUnits,
  getAddress,
  isAddress,
  parseEventLogs,
  parseUnits,
  zeroAddress,
  type Address,
  type Hash,
  type PublicClient,
  type WalletClient,
} from "viem";

import { diceHallAbi, mockEntropyAbi } from "@dicehall/core/generated/abis.ts";

export interface Ops {
  publicClient: PublicClient;
  /** The owner's (or, for accept-ownership, the pending owner's) wallet. */
  walletClient: WalletClient;
  diceHall: Address;
  /** Where to look for TokenConfigured events (the deployment block). */
  fromBlock: bigint;
  log: (line: string) => void;
}

export const NATIVE: Address = zeroAddress;

// ------------------------------------------------------------------ arguments

/** "native", "eth" or "0" mean the chain's coin; anything else must be an address. */
export function parseToken(input: string): Address {
  const value = input.trim().toLowerCase();
  if (value === "native" || value === "eth" || value === "0" || value === zeroAddress)
    return NATIVE;
  if (!isAddress(input.trim())) {
    throw new Error(`"${input}" is not a token address (or "native" for the chain's coin)`);
  }
  return getAddress(input.trim());
}

export function parseAddress(input: string, what: string): Address {
  if (!isAddress(input.trim())) throw new Error(`${what}: "${input}" is not an address`);
  return getAddress(input.trim());
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "90", "90s", "15m", "2h" or "7d" in seconds. */
export function parseDuration(input: string, what: string): number {
  const match = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(input);
  if (!match) throw new Error(`${what}: "${input}" is not a duration (e.g. 60, 90s, 15m, 2h, 7d)`);
  const seconds = Number(match[1]) * UNITS[(match[2] || "s").toLowerCase()];
  if (!Number.isSafeInteger(seconds) || seconds > 2 ** 32 - 1) {
    throw new Error(`${what}: ${input} is too long`);
  }
  return seconds;
}

export function formatDuration(seconds: number): string {
  for (const [unit, size] of [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
  ] as const) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size} ${unit}`;
  }
  return `${seconds} s`;
}

// ------------------------------------------------------------------ reading

export interface TokenInfo {
  token: Address;
  symbol: string;
  decimals: number;
}

export async function tokenInfo(publicClient: PublicClient, token: Address): Promise<TokenInfo> {
  if (token === NATIVE) {
    return { token, symbol: publicClient.chain?.nativeCurrency.symbol ?? "ETH", decimals: 18 };
  }
  const code = await publicClient.getCode({ address: token });
  if (code === undefined || code === "0x") throw new Error(`no contract at ${token} on this chain`);
  const [symbol, decimals] = await Promise.all([
    publicClient
      .readContract({ address: token, abi: erc20Abi, functionName: "symbol" })
      .catch(() => "?"),
    publicClient.readContract({ address: token, abi: erc20Abi, functionName: "decimals" }),
  ]);
  return { token, symbol, decimals };
}

export const formatAmount = (info: TokenInfo, amount: bigint): string =>
  `${formatUnits(amount, info.decimals)} ${info.symbol}`;

/** Every token the owner ever configured, from TokenConfigured events, in first-seen order. */
async function configuredTokens(ops: Ops): Promise<Address[]> {
  const latest = await ops.publicClient.getBlockNumber();
  const seen = new Set<Address>([NATIVE]);
  // Public RPCs cap log ranges; shrink the window when one refuses.
  let step = 50_000n;
  for (let from = ops.fromBlock; from <= latest;) {
    const to = from + step - 1n < latest ? from + step - 1n : latest;
    try {
      const logs = await ops.publicClient.getContractEvents({
        address: ops.diceHall,
        abi: diceHallAbi,
        eventName: "TokenConfigured",
        fromBlock: from,
        toBlock: to,
      });
      for (const log of logs) if (log.args.token) seen.add(getAddress(log.args.token));
      from = to + 1n;
    } catch (err) {
      if (step <= 500n) throw err;
      step /= 4n;
    }
  }
  return [...seen];
}

export interface TokenStatus extends TokenInfo {
  allowed: boolean;
  minBet: bigint;
  maxBet: bigint;
  treasury: bigint;
}

export interface HallStatus {
  diceHall: Address;
  chainId: number;
  owner: Address;
  pendingOwner: Address;
  paused: boolean;
  houseFeeBps: number;
  joinWindow: { min: number; max: number };
  moveTimeout: { min: number; max: number };
  entropy: Address;
  entropyProvider: Address;
  /** What Entropy itself names as its default provider (compare with `entropyProvider`). */
  entropyDefaultProvider: Address | undefined;
  entropyTimeout: number;
  /** How long a roll may stay out before its game may be called off (lobbies opened now). */
  callOffWindow: number;
  callbackGasLimit: number;
  rollFee: bigint;
  nextGameId: bigint;
  tokens: TokenStatus[];
}

export async function readStatus(ops: Ops): Promise<HallStatus> {
  const { publicClient, diceHall } = ops;
  const code = await publicClient.getCode({ address: diceHall });
  if (code === undefined || code === "0x") {
    throw new Error(`no contract at ${diceHall} on this network: wrong --network or --address?`);
  }
  const read = { address: diceHall, abi: diceHallAbi } as const;
  const [
    owner,
    pendingOwner,
    paused,
    houseFeeBps,
    joinWindow,
    moveTimeout,
    entropy,
    entropyProvider,
    entropyTimeout,
    callOffWindow,
    callbackGasLimit,
    rollFee,
    nextGameId,
  ] = await Promise.all([
    publicClient.readContract({ ...read, functionName: "owner" }),
    publicClient.readContract({ ...read, functionName: "pendingOwner" }),
    publicClient.readContract({ ...read, functionName: "paused" }),
    publicClient.readContract({ ...read, functionName: "houseFeeBps" }),
    publicClient.readContract({ ...read, functionName: "joinWindowBounds" }),
    publicClient.readContract({ ...read, functionName: "moveTimeoutBounds" }),
    publicClient.readContract({ ...read, functionName: "entropy" }),
    publicClient.readContract({ ...read, functionName: "entropyProvider" }),
    publicClient.readContract({ ...read, functionName: "entropyTimeout" }),
    publicClient.readContract({ ...read, functionName: "callOffWindow" }),
    publicClient.readContract({ ...read, functionName: "callbackGasLimit" }),
    publicClient.readContract({ ...read, functionName: "rollFee" }),
    publicClient.readContract({ ...read, functionName: "nextGameId" }),
  ]);
  const entropyDefaultProvider = await publicClient
    .readContract({ address: entropy, abi: mockEntropyAbi, functionName: "getDefaultProvider" })
    .catch(() => undefined);

  const tokens: TokenStatus[] = [];
  for (const token of await configuredTokens(ops)) {
    const [info, config, treasury] = await Promise.all([
      tokenInfo(publicClient, token),
      publicClient.readContract({ ...read, functionName: "tokenConfig", args: [token] }),
      publicClient.readContract({ ...read, functionName: "treasury", args: [token] }),
    ]);
    tokens.push({ ...info, ...config, treasury });
  }
  return {
    diceHall,
    chainId: await publicClient.getChainId(),
    owner,
    pendingOwner,
    paused,
    houseFeeBps,
    joinWindow: { min: joinWindow[0], max: joinWindow[1] },
    moveTimeout: { min: moveTimeout[0], max: moveTimeout[1] },
    entropy,
    entropyProvider,
    entropyDefaultProvider,
    entropyTimeout,
    callOffWindow,
    callbackGasLimit,
    rollFee,
    nextGameId,
    tokens,
  };
}

export function formatStatus(s: HallStatus): string {
  const native = s.tokens.find((t) => t.token === NATIVE);
  const providerNote =
    s.entropyDefaultProvider === undefined
      ? "(could not read Entropy's default provider)"
      : s.entropyDefaultProvider === s.entropyProvider
        ? "(Entropy's default provider)"
        : `(NOT Entropy's default provider ${s.entropyDefaultProvider})`;
  const lines = [
    `DiceHall ${s.diceHall} on chain ${s.chainId}`,
    `  owner            ${s.owner}` +
      (s.pendingOwner !== zeroAddress
        ? `\n  pending owner    ${s.pendingOwner} (must call acceptOwnership)`
        : ""),
    `  paused           ${s.paused ? "YES: no new lobbies or joins; play and withdrawals go on" : "no"}`,
    `  games so far     ${s.nextGameId - 1n}`,
    `  house fee        ${s.houseFeeBps} bps (${s.houseFeeBps / 100}%)`,
    `  join window      ${formatDuration(s.joinWindow.min)} .. ${formatDuration(s.joinWindow.max)}`,
    `  move timeout     ${formatDuration(s.moveTimeout.min)} .. ${formatDuration(s.moveTimeout.max)}`,
    `  entropy          ${s.entropy}`,
    `  provider         ${s.entropyProvider} ${providerNote}`,
    `  entropy timeout  ${formatDuration(s.entropyTimeout)}`,
    `  call-off window  ${formatDuration(s.callOffWindow)}`,
    `  callback gas     ${s.callbackGasLimit}  (a roll costs ${native ? formatAmount(native, s.rollFee) : s.rollFee} now)`,
    "  tokens (fees and limits apply to lobbies opened from now on)",
    ...s.tokens.map((t) => {
      const name = t.token === NATIVE ? `${t.symbol} (native)` : `${t.symbol} ${t.token}`;
      const limits = t.allowed
        ? `allowed, bets ${formatUnits(t.minBet, t.decimals)} .. ${formatAmount(t, t.maxBet)}`
        : "not allowed";
      return `    ${name.padEnd(48)} ${limits.padEnd(40)} treasury ${formatAmount(t, t.treasury)}`;
    }),
  ];
  return lines.join("\n");
}

// ------------------------------------------------------------------ writing

type WriteRequest = Parameters<WalletClient["writeContract"]>[0];

/** Sends an owner call, after a simulation that turns a revert into the contract's error. */
async function ownerCall(
  ops: Ops,
  functionName: string,
  args: readonly unknown[],
): Promise<{ hash: Hash; events: string[] }> {
  const account = ops.walletClient.account;
  if (account === undefined) throw new Error("no account to send from");
  const { request } = await ops.publicClient.simulateContract({
    address: ops.diceHall,
    abi: diceHallAbi,
    functionName: functionName as never,
    args: args as never,
    account,
  });
  const hash = await ops.walletClient.writeContract(request as WriteRequest);
  const receipt = await ops.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  const events = parseEventLogs({ abi: diceHallAbi, logs: receipt.logs }).map(
    (e) =>
      `${e.eventName}(${Object.values(e.args ?? {})
        .map((v) => String(v))
        .join(", ")})`,
  );
  ops.log(`  sent ${functionName}: ${hash} (block ${receipt.blockNumber}) ${events.join(" ")}`);
  return { hash, events };
}

export async function setToken(
  ops: Ops,
  args: { token: string; min?: string; max?: string; forbid?: boolean },
) {
  const token = parseToken(args.token);
  const info = await tokenInfo(ops.publicClient, token);
  const label = token === NATIVE ? `${info.symbol} (native)` : `${info.symbol} ${token}`;
  if (args.forbid) {
    ops.log(`Forbidding ${label} for new lobbies (running games keep their terms)`);
    return ownerCall(ops, "setTokenConfig", [token, false, 0n, 0n]);
  }
  if (!args.min || !args.max) throw new Error("give --min and --max (in token units), or --forbid");
  const min = parseUnits(args.min, info.decimals);
  const max = parseUnits(args.max, info.decimals);
  if (max === 0n || min > max) throw new Error(`bet limits must have 0 < max and min <= max`);
  ops.log(
    `Allowing ${label} with bets ${formatUnits(min, info.decimals)} .. ${formatAmount(info, max)}`,
  );
  return ownerCall(ops, "setTokenConfig", [token, true, min, max]);
}

export async function setFee(ops: Ops, bps: number) {
  if (bps === -1) throw new Error("give --bps: basis points, 0..1000 (250 = 2.5%)");
  if (!Number.isInteger(bps) || bps < 0 || bps > 1000) {
    throw new Error(`--bps must be 0..1000 (the contract's cap is 10%), not ${bps}`);
  }
  ops.log(`Setting the house fee to ${bps} bps (${bps / 100}%) for lobbies opened from now on`);
  return ownerCall(ops, "setHouseFee", [bps]);
}

export async function setBounds(
  ops: Ops,
  args: { joinMin?: string; joinMax?: string; moveMin?: string; moveMax?: string },
) {
  const results = [];
  const pairs = [
    ["join window", "setJoinWindowBounds", args.joinMin, args.joinMax, "--join-min/--join-max"],
    ["move timeout", "setMoveTimeoutBounds", args.moveMin, args.moveMax, "--move-min/--move-max"],
  ] as const;
  for (const [what, fn, minText, maxText, flags] of pairs) {
    if (minText === undefined && maxText === undefined) continue;
    if (minText === undefined || maxText === undefined) throw new Error(`give both ${flags}`);
    const min = parseDuration(minText, what);
    const max = parseDuration(maxText, what);
    if (min === 0 || min > max) throw new Error(`${what}: need 0 < min <= max`);
    ops.log(`Setting ${what} bounds to ${formatDuration(min)} .. ${formatDuration(max)}`);
    results.push(await ownerCall(ops, fn, [min, max]));
  }
  if (results.length === 0)
    throw new Error("nothing to set: give --join-min/--join-max and/or --move-min/--move-max");
  return results;
}

export async function setEntropySettings(
  ops: Ops,
  args: { timeout?: string; callbackGas?: string; provider?: string; callOffWindow?: string },
) {
  const results = [];
  // A longer window first, so that a longer timeout fits 12 times into it.
  if (args.callOffWindow !== undefined) {
    const seconds = parseDuration(args.callOffWindow, "call-off window");
    ops.log(
      `Setting the call-off window to ${formatDuration(seconds)} for lobbies opened from now on`,
    );
    results.push(await ownerCall(ops, "setCallOffWindow", [seconds]));
  }
  if (args.timeout !== undefined) {
    const seconds = parseDuration(args.timeout, "entropy timeout");
    if (seconds === 0) throw new Error("the entropy timeout must be above 0");
    ops.log(
      `Setting the entropy timeout to ${formatDuration(seconds)} for lobbies opened from now on`,
    );
    results.push(await ownerCall(ops, "setEntropyTimeout", [seconds]));
  }
  if (args.callbackGas !== undefined) {
    const gas = Number(args.callbackGas);
    if (!Number.isInteger(gas) || gas <= 0 || gas > 2_500_000) {
      throw new Error(`--callback-gas must be 1..2500000, not ${args.callbackGas}`);
    }
    ops.log(
      `Setting the callback gas limit to ${gas} (affects every roll from now on and its fee)`,
    );
    results.push(await ownerCall(ops, "setCallbackGasLimit", [gas]));
  }
  if (args.provider !== undefined) {
    const provider = parseAddress(args.provider, "--provider");
    ops.log(`Following Entropy's default provider ${provider} (the hall takes no other)`);
    results.push(await ownerCall(ops, "setEntropyProvider", [provider]));
  }
  if (results.length === 0)
    throw new Error(
      "nothing to set: give --timeout, --call-off-window, --callback-gas and/or --provider",
    );
  return results;
}

export async function setPaused(ops: Ops, paused: boolean) {
  ops.log(
    paused
      ? "Pausing: no new lobbies or joins; play, refunds and withdrawals go on"
      : "Unpausing: lobbies and joins are open again",
  );
  return ownerCall(ops, paused ? "pause" : "unpause", []);
}

export async function withdrawTreasury(
  ops: Ops,
  args: { token: string; to?: string; amount?: string },
) {
  const token = parseToken(args.token);
  if (args.to === undefined) throw new Error("give --to: where the fees go");
  const to = parseAddress(args.to, "--to");
  const info = await tokenInfo(ops.publicClient, token);
  const available = await ops.publicClient.readContract({
    address: ops.diceHall,
    abi: diceHallAbi,
    functionName: "treasury",
    args: [token],
  });
  const amount =
    args.amount === undefined || args.amount === "all"
      ? available
      : parseUnits(args.amount, info.decimals);
  if (amount === 0n) throw new Error(`the treasury holds no ${info.symbol}`);
  if (amount > available) {
    throw new Error(`the treasury holds only ${formatAmount(info, available)}`);
  }
  ops.log(`Withdrawing ${formatAmount(info, amount)} of house fees to ${to}`);
  return ownerCall(ops, "withdrawTreasury", [token, to, amount]);
}

export async function transferOwnership(ops: Ops, to: string | undefined) {
  if (to === undefined) throw new Error("give --to: the new owner");
  const newOwner = parseAddress(to, "--to");
  ops.log(
    `Naming ${newOwner} pending owner. Nothing changes until it calls acceptOwnership ` +
      "(`npx hardhat dicehall accept-ownership` with its key, or a Safe transaction).",
  );
  return ownerCall(ops, "transferOwnership", [newOwner]);
}

export async function acceptOwnership(ops: Ops) {
  ops.log(`Accepting ownership as ${ops.walletClient.account?.address}`);
  return ownerCall(ops, "acceptOwnership", []);
}
