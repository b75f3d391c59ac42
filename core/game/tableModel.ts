import type { Address } from "viem";
import type { RuleSetId } from "../rules/ruleSets.ts";
import type { BoxOption, Sheet } from "../rules/sheet.ts";

/**
 * Everything the table shows, as plain data: the live game builds it from the chain, practice mode
 * from local state. The components below never know which.
 */
export interface TablePlayer {
  id: string;
  /** "You", a name, or a short address. */
  name: string;
  /** The account at an on-chain table (its face and full address are shown); none in practice. */
  address?: Address;
  isMe: boolean;
  sheet: Sheet;
  forfeited: boolean;
}

export interface TableModel {
  ruleSet: RuleSetId;
  /** In turn order. */
  players: TablePlayer[];
  currentSeat: number | null;
  /** 1-based; equals the number of boxes in the last round. */
  round: number;
  rounds: number;
  /** The dice of the current turn, position by position; null where nothing is rolled yet. */
  dice: (number | null)[];
  /** The heading over the dice, naming whose they are ("Ann's dice"); "Dice" when unset. */
  diceTitle?: string;
  /** The dice shown are the previous turn's last ones (this turn has not rolled yet). */
  diceFromLastTurn?: boolean;
  rollsUsed: number;
  maxRolls: number;
  /** Bit i keeps die i: my choice on my turn, the roller's sent mask otherwise. */
  keepMask: number;
  /** A roll is under way: the dice not kept tumble until the real values arrive. */
  rolling: boolean;
  /** The viewer holds the dice now (keep toggles and roll are theirs). */
  myTurn: boolean;
  canRoll: boolean;
  /** What the roll button does ("Re-roll (2 left)"). */
  rollLabel: string;
  /**
   * What a roll costs, said after the label in smaller type ("fee 0.000021 ETH", "no fee"); unset
   * where rolling is free (practice, replays).
   */
  rollCost?: string | null;
  /** One line under the dice: what is happening or why rolling is not possible. */
  rollHint: string | null;
  /** Why rolling and scoring are off although it is my turn (e.g. the move clock ran out). */
  blockedReason?: string | null;
  /** My open boxes with what they would score now; null when I can't score. */
  options: BoxOption[] | null;
  /**
   * The box I chose, while its transaction is out: it stays marked with its points, and `options`
   * stay on the sheet as previews that cannot be chosen.
   */
  scoring?: { box: number; points: number } | null;
  /** The column that takes previews and box choices (mine), if any. */
  scoringSeat: number | null;
  /** Whose turn and the time left, as one sentence (also what T reads). */
  turnText: string;
  /** The move clock is in its last 30 seconds. */
  urgent?: boolean;
  /** Newest last; `player` is the account a line is about, shown by its face. */
  log: { id: string; text: string; player?: Address }[];
  /** A transaction in progress, e.g. "Confirm in your wallet…". */
  busyText: string | null;
  errorText: string | null;
}

export interface TableHandlers {
  onRoll: () => void;
  onToggleKeep: (die: number) => void;
  onScore: (box: number) => void;
}

export const keptAt = (mask: number, die: number): boolean => ((mask >> die) & 1) === 1;
