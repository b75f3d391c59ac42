import type { Address } from "viem";
import type { GameRecord, PlayerRecord, TurnRecord } from "../coach/analyse.ts";
import { isRuleSetId } from "../rules/ruleSets.ts";
import { key, type GameState, type LogEntry } from "./gameState.ts";

/**
 * A game's moves as the coach reviews them (coach/analyse.ts), from the game's events alone: the
 * dice of each DiceRolled, the keep mask its RollRequested carried, and the box of each Scored. So
 * every game ever played can be analysed, not only those played since the coach existed.
 */

interface Building {
  turns: TurnRecord[];
  /** The turn in progress (rolled, not scored yet). */
  open: { rolls: number[][]; keepMasks: number[] } | null;
  /** A move the coach cannot follow (a score without dice, a roll out of order): stop here. */
  cut: boolean;
}

function step(b: Building, entry: LogEntry): void {
  if (b.cut) return;
  if (entry.kind === "rolled") {
    const { rollNumber, dice, keepMask } = entry.roll;
    if (rollNumber === 1) {
      // A turn that ended without a box (a timeout) leaves nothing more for this player.
      if (b.open) b.turns.push({ rolls: b.open.rolls, keepMasks: b.open.keepMasks });
      b.open = { rolls: [[...dice]], keepMasks: [] };
    } else if (b.open && b.open.rolls.length === rollNumber - 1) {
      b.open.rolls.push([...dice]);
      b.open.keepMasks.push(keepMask);
    } else {
      b.cut = true;
    }
  } else if (entry.kind === "scored") {
    if (!b.open) {
      b.cut = true;
      return;
    }
    b.turns.push({ rolls: b.open.rolls, keepMasks: b.open.keepMasks, box: entry.box });
    b.open = null;
  }
}

/** Every player's turns, in turn order, from a folded game; null before the order is drawn. */
export function coachRecordOf(
  state: GameState,
  name: (player: Address) => string = (p) => p,
): GameRecord | null {
  if (state.ruleSet === null || !isRuleSetId(state.ruleSet) || !state.orderDrawn) return null;
  const building = new Map<string, Building>(
    state.players.map((p) => [key(p), { turns: [], open: null, cut: false }]),
  );
  for (const entry of state.log) {
    if (entry.kind !== "rolled" && entry.kind !== "scored") continue;
    const b = building.get(key(entry.player));
    if (b) step(b, entry);
  }
  const players = state.players.map((p): PlayerRecord => {
    const b = building.get(key(p))!;
    const turns = b.open && !b.cut ? [...b.turns, { ...b.open }] : b.turns;
    return { player: name(p), turns };
  });
  return { ruleSet: state.ruleSet, players };
}
