import {
  decodeEventLog,
  encodeAbiParameters,
  formatLog,
  numberToHex,
  pad,
  type Address,
  type Client,
  type ContractEventArgsFromTopics,
  type ContractEventName,
  type Hex,
  type RpcLog,
} from "viem";
import { diceHallAbi, diceHallEventSelectors } from "../generated/abis.ts";

export type HallEventName = ContractEventName<typeof diceHallAbi>;

/** A decoded DiceHall log: what the reducers fold. */
export type HallLog = {
  [N in HallEventName]: {
    eventName: N;
    args: ContractEventArgsFromTopics<typeof diceHallAbi, N>;
    blockNumber: bigint;
    logIndex: number;
    transactionHash?: Hex | null;
  };
}[HallEventName];

export type HallLogOf<N extends HallEventName> = Extract<HallLog, { eventName: N }>;

/** Events whose first topic is the game id: everything that happens at a table. */
export const GAME_EVENTS = [
  "GameCreated",
  "MatchCreated",
  "PlayerInvited",
  "PlayerJoined",
  "PlayerLeft",
  "GameStarted",
  "RollRequested",
  "RollRefused",
  "DiceRolled",
  "Scored",
  "PlayerForfeited",
  "MatchGameFinished",
  "GameFinished",
  "GameCancelled",
] as const satisfies readonly HallEventName[];

export type GameEventName = (typeof GAME_EVENTS)[number];
export type GameLog = HallLogOf<GameEventName>;

/**
 * An event's selector (the keccak hash of its signature), as scripts/export-abi.ts hashed it from
 * the build: a phone reading a game's logs would otherwise hash every event's signature first.
 */
export function eventSelector(name: HallEventName): Hex {
  return diceHallEventSelectors[name];
}

/** A memo of `make`, computed on first use: a page may never need it. */
function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** The topics of a game's events (the first topic of a filter that follows one game). */
export const gameEventSelectors: () => Hex[] = lazily(() => GAME_EVENTS.map(eventSelector));

export function isGameLog(log: HallLog): log is GameLog {
  return (GAME_EVENTS as readonly string[]).includes(log.eventName);
}

/**
 * A player's session (issue 24), whose first topic is the player: the app and the indexer follow
 * a player's key with these.
 */
export const SESSION_EVENTS = [
  "SessionOpened",
  "SessionRevoked",
] as const satisfies readonly HallEventName[];

export type SessionEventName = (typeof SESSION_EVENTS)[number];
export type SessionLog = HallLogOf<SessionEventName>;

export const sessionEventSelectors: () => Hex[] = lazily(() => SESSION_EVENTS.map(eventSelector));

export function isSessionLog(log: HallLog): log is SessionLog {
  return (SESSION_EVENTS as readonly string[]).includes(log.eventName);
}

/**
 * Events after which an account's credit (`credits(token, account)`) may read differently: paid in,
 * paid out (a session's unspent fees returned on revoke or replace show as Credited), or put in by
 * the account. A session key's roll fee comes from the session's own fees, not from credit (read
 * `session(player)` after the player's RollRequested). A bet paid from credit shows as the game's
 * own GameCreated or PlayerJoined.
 */
export const CREDIT_EVENTS = [
  "Credited",
  "Withdrawn",
  "Deposited",
] as const satisfies readonly HallEventName[];

export const uintTopic = (value: bigint): Hex => pad(numberToHex(value), { size: 32 });
export const addressTopic = (account: Address): Hex =>
  pad(account.toLowerCase() as Hex, { size: 32 });

/** Order of logs on chain; the reducers fold in this order. */
export function compareLogs(a: HallLog, b: HallLog): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}

const logId = (log: HallLog) => `${log.blockNumber}:${log.logIndex}`;

/** Merges log lists, dropping duplicates (same block and log index) and sorting. */
export function mergeLogs<L extends HallLog>(...lists: readonly (readonly L[])[]): L[] {
  const byId = new Map<string, L>();
  for (const list of lists) for (const log of list) byId.set(logId(log), log);
  return [...byId.values()].sort(compareLogs);
}

/** The hall's events, as the ABI declares them. */
const hallEventItems = lazily(() =>
  diceHallAbi.filter(
    (item): item is Extract<(typeof diceHallAbi)[number], { type: "event" }> =>
      item.type === "event",
  ),
);

/** The hall's events by selector, for decoding: the build's selectors, so nothing is hashed here. */
const eventsBySelector = lazily(
  () =>
    new Map(hallEventItems().map((event) => [diceHallEventSelectors[event.name] as Hex, event])),
);

/**
 * The hall's logs among `raw`, decoded; a log whose first topic is none of the hall's events, or
 * that does not decode as its event, is left out (the caller's filter picks the address). Each log
 * is decoded against its own event only: viem's parseEventLogs hashes every event of the ABI on
 * each call.
 */
export function decodeLogs(raw: readonly RpcLog[]): HallLog[] {
  const logs: HallLog[] = [];
  for (const rpcLog of raw) {
    const log = formatLog(rpcLog);
    const event = log.topics[0] && eventsBySelector().get(log.topics[0]);
    if (!event) continue;
    let decoded;
    try {
      decoded = decodeEventLog({ abi: [event], topics: log.topics, data: log.data, strict: true });
    } catch {
      continue;
    }
    logs.push({
      eventName: decoded.eventName,
      args: decoded.args,
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
      transactionHash: log.transactionHash,
    } as HallLog);
  }
  return logs;
}

/** Each event's selector, indexed inputs and data inputs, looked up once, on first use. */
const eventItems = lazily(
  () =>
    new Map(
      hallEventItems().map((event) => [
        event.name as HallEventName,
        {
          selector: diceHallEventSelectors[event.name] as Hex,
          indexed: event.inputs.filter((i) => "indexed" in i && i.indexed),
          data: event.inputs.filter((i) => !("indexed" in i && i.indexed)),
        },
      ]),
    ),
);

/** An indexed argument's topic: DiceHall indexes game ids, addresses and tokens only. */
function topicOf(type: string, value: unknown): Hex {
  if (type === "address") return addressTopic(value as Address);
  if (type === "uint256") return uintTopic(value as bigint);
  throw new TypeError(`no topic encoding for an indexed ${type}`);
}

/**
 * A decoded log's topics and data as the contract emits them: the inverse of decodeLogs, for
 * logs made off chain (the indexer benchmark's seeded history, test fixtures).
 */
export function encodeHallLog(log: Pick<HallLog, "eventName" | "args">): {
  topics: [Hex, ...Hex[]];
  data: Hex;
} {
  const item = eventItems().get(log.eventName)!;
  const args = log.args as Record<string, unknown>;
  const topics: [Hex, ...Hex[]] = [item.selector];
  for (const input of item.indexed) topics.push(topicOf(input.type, args[input.name!]));
  const data = encodeAbiParameters(
    item.data,
    item.data.map((i) => args[i.name!]),
  );
  return { topics, data };
}

/** Backfill ranges stay below what public RPCs accept for eth_getLogs. */
export const LOG_RANGE = 5_000n;

export interface LogFilter {
  address: Address;
  /** Topic 0 alternatives, then further topics (null = any). */
  topics: (Hex | Hex[] | null)[];
}

async function getRange(
  client: Client,
  filter: LogFilter,
  from: bigint,
  to: bigint,
): Promise<RpcLog[]> {
  try {
    return (await client.request({
      method: "eth_getLogs",
      params: [
        {
          address: filter.address,
          topics: filter.topics,
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to),
        },
      ],
    })) as RpcLog[];
  } catch (error) {
    // Providers cap results per call; a smaller range usually goes through.
    if (to - from < 16n) throw error;
    const mid = from + (to - from) / 2n;
    return [
      ...(await getRange(client, filter, from, mid)),
      ...(await getRange(client, filter, mid + 1n, to)),
    ];
  }
}

/** All logs matching `filter` in [fromBlock, toBlock], fetched in bounded ranges, decoded, sorted. */
export async function fetchLogs(
  client: Client,
  filter: LogFilter,
  fromBlock: bigint,
  toBlock: bigint,
  range: bigint = LOG_RANGE,
): Promise<HallLog[]> {
  const raw: RpcLog[] = [];
  for (let start = fromBlock; start <= toBlock; start += range) {
    const end = start + range - 1n < toBlock ? start + range - 1n : toBlock;
    raw.push(...(await getRange(client, filter, start, end)));
  }
  return mergeLogs(decodeLogs(raw));
}

/** Logs already fetched up to `syncedTo`; the next fetch starts one block later. */
export interface LogCache<L extends HallLog = HallLog> {
  logs: L[];
  syncedTo: bigint;
}

export async function extendLogs(
  client: Client,
  filter: LogFilter,
  previous: LogCache | undefined,
  fromBlock: bigint,
  head: bigint,
): Promise<LogCache & { added: number }> {
  const start = previous ? previous.syncedTo + 1n : fromBlock;
  if (previous && start > head) return { ...previous, added: 0 };
  const fresh = start <= head ? await fetchLogs(client, filter, start, head) : [];
  const logs = mergeLogs(previous?.logs ?? [], fresh);
  return { logs, syncedTo: head, added: logs.length - (previous?.logs.length ?? 0) };
}
