import { isHex } from "viem";
import { isRuleSetId, ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import {
  MAX_GAMES,
  MAX_PLAYERS,
  MIN_GAMES,
  MIN_PLAYERS,
  PRACTICE_VERSION,
  ROLLS_PER_TURN,
  type PracticeState,
} from "./engine.ts";

/**
 * Practice survives a reload: the state is JSON in localStorage. What comes back is checked
 * shape by shape (it may be from an older version, or edited by hand); anything off starts a
 * fresh session rather than a broken one.
 */

export const PRACTICE_STORAGE_KEY = "dicehall:practice";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const isDice = (v: unknown): boolean =>
  Array.isArray(v) && v.length === 5 && v.every((d) => isInt(d, 1, 6));

function isSheet(v: unknown, ruleSetId: number): boolean {
  if (!isObject(v) || v.ruleSet !== ruleSetId || !isInt(v.yahtzeeBonuses, 0, 13)) return false;
  const boxes = v.boxes;
  return (
    Array.isArray(boxes) &&
    boxes.length === ruleSet(ruleSetId).boxes.length &&
    boxes.every((b) => b === null || isInt(b, 0, 100))
  );
}

function isTurns(v: unknown, seats: number): boolean {
  return (
    Array.isArray(v) &&
    v.length === seats &&
    v.every(
      (mine) =>
        Array.isArray(mine) &&
        mine.every(
          (t) =>
            isObject(t) &&
            Array.isArray(t.rolls) &&
            t.rolls.length >= 1 &&
            t.rolls.length <= ROLLS_PER_TURN &&
            t.rolls.every(isDice) &&
            Array.isArray(t.keepMasks) &&
            t.keepMasks.length === t.rolls.length - 1 &&
            t.keepMasks.every((m) => isInt(m, 0, 31)) &&
            (t.box === undefined || isInt(t.box, 0, 15)),
        ),
    )
  );
}

export function isPracticeState(v: unknown): v is PracticeState {
  if (!isObject(v) || v.version !== PRACTICE_VERSION) return false;
  if (!["setup", "playing", "sessionOver"].includes(v.phase as string)) return false;
  if (typeof v.ruleSet !== "number" || !isRuleSetId(v.ruleSet)) return false;
  const rs = v.ruleSet;
  const names = v.names;
  if (!Array.isArray(names) || names.length < MIN_PLAYERS || names.length > MAX_PLAYERS)
    return false;
  if (!names.every((n) => typeof n === "string")) return false;
  if (!isInt(v.games, MIN_GAMES, MAX_GAMES) || !isInt(v.nextLogId, 1, Number.MAX_SAFE_INTEGER))
    return false;
  const seats = names.length;
  if (
    v.bots !== undefined &&
    !(
      Array.isArray(v.bots) &&
      v.bots.length === seats &&
      v.bots.every((b) => b === null || b === "coach" || b === "casual")
    )
  )
    return false;
  if (!Array.isArray(v.results) || v.results.length > v.games) return false;
  for (const r of v.results) {
    if (!isObject(r) || !Array.isArray(r.totals) || r.totals.length !== seats) return false;
    if (!r.totals.every((t) => isInt(t, 0, 10_000))) return false;
    if (!Array.isArray(r.winners) || !r.winners.every((w) => isInt(w, 0, seats - 1))) return false;
  }
  if (
    !Array.isArray(v.log) ||
    !v.log.every((l) => isObject(l) && typeof l.id === "string" && typeof l.text === "string")
  ) {
    return false;
  }
  if (v.phase === "setup") return v.game === null;
  const g = v.game;
  if (!isObject(g)) return false;
  if (!isInt(g.number, 1, v.games) || !isInt(g.starter, 0, seats - 1)) return false;
  if (
    !Array.isArray(g.sheets) ||
    g.sheets.length !== seats ||
    !g.sheets.every((s) => isSheet(s, rs))
  )
    return false;
  if (!(g.currentSeat === null || isInt(g.currentSeat, 0, seats - 1))) return false;
  if (!isInt(g.round, 1, ruleSet(rs).boxes.length)) return false;
  if (!isInt(g.rollsUsed, 0, ROLLS_PER_TURN) || !isInt(g.keepMask, 0, 31)) return false;
  if (g.rollsUsed === 0 ? g.dice !== null : !isDice(g.dice)) return false;
  const last = g.lastTurn;
  if (!(last == null || (isObject(last) && isInt(last.seat, 0, seats - 1) && isDice(last.dice)))) {
    return false;
  }
  if (g.turns !== undefined && !isTurns(g.turns, seats)) return false;
  if (!(
    g.lastRandom === null ||
    (typeof g.lastRandom === "string" && isHex(g.lastRandom) && g.lastRandom.length === 66)
  )) {
    return false;
  }
  return true;
}

export function loadPractice(storage: Pick<Storage, "getItem"> | undefined): PracticeState | null {
  try {
    const raw = storage?.getItem(PRACTICE_STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isPracticeState(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function savePractice(
  storage: Pick<Storage, "setItem"> | undefined,
  state: PracticeState,
): void {
  try {
    storage?.setItem(PRACTICE_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or unavailable (private mode): practice still works until the tab closes.
  }
}
