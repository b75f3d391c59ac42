import { isAddress, type Address } from "viem";
import { localStore } from "./localStore.ts";

/**
 * The kind of table a player last opened or joined: what "Play now" looks for (and opens when it
 * finds none). Kept in localStorage per chain, since token addresses differ from chain to chain.
 */
export interface TablePrefs {
  token: Address;
  bet: bigint;
  seats: number;
  ruleSet: number;
  /** Games in the match (issue 33); absent in prefs saved before matches, read as 1. */
  games?: number;
}

const KEY = "dicehall.tablePrefs";
const keyFor = (chainId: number) => `${KEY}.${chainId}`;

/** The remembered table, or null when there is none (or what is stored is not one). */
export function loadTablePrefs(chainId: number, store = localStore()): TablePrefs | null {
  try {
    const raw = store?.getItem(keyFor(chainId));
    if (!raw) return null;
    const data = JSON.parse(raw) as Record<string, unknown>;
    const { token, bet, seats, ruleSet, games } = data;
    if (typeof token !== "string" || !isAddress(token)) return null;
    if (typeof bet !== "string" || !/^\d+$/.test(bet)) return null;
    if (typeof seats !== "number" || !Number.isInteger(seats)) return null;
    if (typeof ruleSet !== "number" || !Number.isInteger(ruleSet)) return null;
    const length =
      typeof games === "number" && Number.isInteger(games) && games >= 1 && games <= 10 ? games : 1;
    return { token, bet: BigInt(bet), seats, ruleSet, games: length };
  } catch {
    return null;
  }
}

export function saveTablePrefs(chainId: number, prefs: TablePrefs, store = localStore()): void {
  try {
    const { token, bet, seats, ruleSet, games = 1 } = prefs;
    store?.setItem(
      keyFor(chainId),
      JSON.stringify({ token, bet: bet.toString(), seats, ruleSet, games }),
    );
  } catch {
    // A full or blocked storage only costs the memory of the last table.
  }
}
