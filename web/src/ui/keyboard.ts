/**
 * The table's keys as a pure function: a key press plus what the table looks like gives the
 * action to take (or null). The live table and practice mode share it.
 */

export type ReadTarget = "dice" | "sheet" | "scores" | "turn";

export type TableAction =
  | { type: "roll" }
  | { type: "toggleKeep"; die: number }
  | { type: "read"; what: ReadTarget }
  | { type: "focusBox"; box: number }
  | { type: "scoreBox"; box: number }
  | { type: "help" };

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The key went to a text field (input, textarea, select, contenteditable). */
  inTextField?: boolean;
  /** The key went to a button or link, which handles Enter and Space itself. */
  onControl?: boolean;
}

export interface KeyContext {
  /** My open boxes in sheet order (the ones the arrows move over). */
  openBoxes: readonly number[];
  /** The box the arrows last moved to, if any. */
  focusedBox: number | null;
}

export const TABLE_KEYS: readonly { keys: string; action: string }[] = [
  { keys: "R", action: "Roll the dice (the ones not kept)" },
  { keys: "1 – 5", action: "Keep or release die 1 to 5" },
  { keys: "D", action: "Read the dice" },
  { keys: "C", action: "Read my score sheet" },
  { keys: "S", action: "Read everyone's totals" },
  { keys: "T", action: "Whose turn it is and the time left" },
  { keys: "↑ ↓ ← →", action: "Move over my open boxes" },
  { keys: "Enter", action: "Score the dice in the chosen box" },
  { keys: "?", action: "Show these keys" },
];

function step(ctx: KeyContext, direction: 1 | -1): TableAction | null {
  const { openBoxes, focusedBox } = ctx;
  if (openBoxes.length === 0) return null;
  const at = focusedBox === null ? -1 : openBoxes.indexOf(focusedBox);
  if (at === -1) {
    return {
      type: "focusBox",
      box: direction === 1 ? openBoxes[0] : openBoxes[openBoxes.length - 1],
    };
  }
  const next = (at + direction + openBoxes.length) % openBoxes.length;
  return { type: "focusBox", box: openBoxes[next] };
}

export function tableKeyAction(press: KeyPress, ctx: KeyContext): TableAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey || press.inTextField) return null;
  const key = press.key;
  switch (key) {
    case "r":
    case "R":
      return { type: "roll" };
    case "1":
    case "2":
    case "3":
    case "4":
    case "5":
      return { type: "toggleKeep", die: Number(key) - 1 };
    case "d":
    case "D":
      return { type: "read", what: "dice" };
    case "c":
    case "C":
      return { type: "read", what: "sheet" };
    case "s":
    case "S":
      return { type: "read", what: "scores" };
    case "t":
    case "T":
      return { type: "read", what: "turn" };
    case "?":
      return { type: "help" };
    case "ArrowDown":
    case "ArrowRight":
      return step(ctx, 1);
    case "ArrowUp":
    case "ArrowLeft":
      return step(ctx, -1);
    case "Home":
      return ctx.openBoxes.length ? { type: "focusBox", box: ctx.openBoxes[0] } : null;
    case "End":
      return ctx.openBoxes.length
        ? { type: "focusBox", box: ctx.openBoxes[ctx.openBoxes.length - 1] }
        : null;
    case "Enter":
      if (press.onControl) return null;
      return ctx.focusedBox !== null && ctx.openBoxes.includes(ctx.focusedBox)
        ? { type: "scoreBox", box: ctx.focusedBox }
        : null;
    default:
      return null;
  }
}
