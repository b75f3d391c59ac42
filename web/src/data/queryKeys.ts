import type { Address } from "viem";

/**
 * Every query key of the app. Keys start with the chain and the hall, so switching chains never
 * mixes data, and the event watcher can invalidate exactly what an event touches.
 */
type Scope = { chainId: number; hall: Address };

const root = ({ chainId, hall }: Scope) => ["dicehall", chainId, hall.toLowerCase()] as const;
const addr = (a: Address) => a.toLowerCase();

export const queryKeys = {
  hall: root,
  /** Every game event of the hall, backfilled then extended block by block. */
  hallLogs: (s: Scope) => [...root(s), "hallLogs"] as const,
  /**
   * One stream of logs kept in the browser's cache (IndexedDB). It extends hallLogs, so the hall
   * watcher's invalidation reaches it.
   */
  cachedLogs: (s: Scope, stream: string) => [...root(s), "hallLogs", "cached", stream] as const,
  /** The game index's GET /api/status, checked against this hall. */
  indexerStatus: (s: Scope, url: string) => [...root(s), "indexer", "status", url] as const,
  /**
   * One read from the game index (leaderboard, games, a game's logs). It extends hallLogs, so the
   * hall watcher's invalidation refetches it when events arrive, like the browser's own scan.
   */
  indexed: (s: Scope, url: string, what: string, params: string) =>
    [...root(s), "hallLogs", "indexer", url, what, params] as const,
  /** Every read from one game index: refreshed together once the index has caught up. */
  indexedAll: (s: Scope, url: string) => [...root(s), "hallLogs", "indexer", url] as const,
  /**
   * The latest block in which the hall watcher saw a game event, and when (a WatchedBlock). Set
   * by the watcher, read by the index catch-up; outside hallLogs, so no invalidation clears it.
   */
  watchedBlock: (s: Scope) => [...root(s), "watchedBlock"] as const,
  /** The first block of a leaderboard period (bucketed by time). */
  periodStart: (s: Scope, period: string, bucket: number) =>
    [...root(s), "periodStart", period, bucket] as const,
  /** Block timestamps never change, so they sit outside the hallLogs prefix. */
  blockTimes: (s: Scope, blocks: string) => [...root(s), "blockTimes", blocks] as const,
  /** PlayerInvited logs for one invitee. */
  invites: (s: Scope, account: Address) => [...root(s), "invites", addr(account)] as const,
  invitesAll: (s: Scope) => [...root(s), "invites"] as const,
  /** One game's logs plus its views at the same block. */
  game: (s: Scope, gameId: bigint) => [...root(s), "game", gameId.toString()] as const,
  gamesAll: (s: Scope) => [...root(s), "game"] as const,
  /** getGame for a set of games (lobby countdowns, my running games). */
  gameViews: (s: Scope, ids: readonly bigint[]) =>
    [...root(s), "gameViews", ids.map(String).join(",")] as const,
  gameViewsAll: (s: Scope) => [...root(s), "gameViews"] as const,
  /** Owner settings: bounds, fee, allowed tokens. */
  settings: (s: Scope) => [...root(s), "settings"] as const,
  rollFee: (s: Scope, gameId: bigint) => [...root(s), "rollFee", gameId.toString()] as const,
  rollFeesAll: (s: Scope) => [...root(s), "rollFee"] as const,
  /** The latest block's timestamp: the chain's clock for every countdown. */
  chainClock: (s: Scope) => [...root(s), "chainClock"] as const,
  credits: (s: Scope, account: Address, tokens: readonly Address[]) =>
    [...root(s), "credits", addr(account), tokens.map(addr).join(",")] as const,
  creditsAll: (s: Scope) => [...root(s), "credits"] as const,
  /** A player's session on chain (`session(player)`) and this browser's key's balance. */
  session: (s: Scope, account: Address) => [...root(s), "session", addr(account)] as const,
  /** Token symbol and decimals never change. */
  tokenInfo: (chainId: number, token: Address) => ["token", chainId, addr(token)] as const,
  balances: (chainId: number, account: Address) => ["balance", chainId, addr(account)] as const,
  balance: (chainId: number, account: Address, token: Address) =>
    ["balance", chainId, addr(account), addr(token)] as const,
  allowance: (chainId: number, token: Address, owner: Address, spender: Address) =>
    ["balance", chainId, addr(owner), addr(token), "allowance", addr(spender)] as const,
  /** Every balance and allowance on a chain: any of our transactions may move one. */
  balancesOnChain: (chainId: number) => ["balance", chainId] as const,
  ensName: (address: Address) => ["ens", "name", addr(address)] as const,
  ensAvatar: (name: string) => ["ens", "avatar", name.toLowerCase()] as const,
  ensAddresses: (names: readonly string[]) =>
    ["ens", "address", names.join(",").toLowerCase()] as const,
  /** The key of a query that is disabled (no hall or no account yet); never fetched. */
  idle: (name: string) => ["idle", name] as const,
  devAccounts: () => ["devAccounts"] as const,
  /** The coach's table of a rule set in this page's worker (never stale: it is the rules). */
  coachTable: (ruleSet: number) => ["coach", "table", ruleSet] as const,
  /** The coach's advice for one position (sheet, dice, rolls used, as JSON). */
  coachAdvice: (ruleSet: number, position: string) =>
    ["coach", "advice", ruleSet, position] as const,
  /** The coach's review of one game's moves. */
  coachReview: (ruleSet: number, game: string) => ["coach", "review", ruleSet, game] as const,
};
