import { describe, expect, it } from "vitest";
import { tableKeyAction, type KeyContext } from "./keyboard.ts";

const ctx: KeyContext = { openBoxes: [2, 5, 9], focusedBox: null };
const press = (key: string, extra = {}) => tableKeyAction({ key, ...extra }, ctx);

describe("tableKeyAction", () => {
  it("maps the letter keys, either case", () => {
    expect(press("r")).toEqual({ type: "roll" });
    expect(press("R")).toEqual({ type: "roll" });
    expect(press("d")).toEqual({ type: "read", what: "dice" });
    expect(press("C")).toEqual({ type: "read", what: "sheet" });
    expect(press("s")).toEqual({ type: "read", what: "scores" });
    expect(press("t")).toEqual({ type: "read", what: "turn" });
    expect(press("?")).toEqual({ type: "help" });
  });

  it("toggles dice 1 to 5 (positions 0 to 4)", () => {
    expect(["1", "2", "3", "4", "5"].map((k) => press(k))).toEqual(
      [0, 1, 2, 3, 4].map((die) => ({ type: "toggleKeep", die })),
    );
    expect(press("6")).toBeNull();
    expect(press("0")).toBeNull();
  });

  it("moves over open boxes with the arrows, wrapping around", () => {
    expect(press("ArrowDown")).toEqual({ type: "focusBox", box: 2 });
    expect(press("ArrowUp")).toEqual({ type: "focusBox", box: 9 });
    const at5 = { ...ctx, focusedBox: 5 };
    expect(tableKeyAction({ key: "ArrowDown" }, at5)).toEqual({ type: "focusBox", box: 9 });
    expect(tableKeyAction({ key: "ArrowRight" }, at5)).toEqual({ type: "focusBox", box: 9 });
    expect(tableKeyAction({ key: "ArrowLeft" }, at5)).toEqual({ type: "focusBox", box: 2 });
    expect(tableKeyAction({ key: "ArrowDown" }, { ...ctx, focusedBox: 9 })).toEqual({
      type: "focusBox",
      box: 2,
    });
    expect(tableKeyAction({ key: "Home" }, at5)).toEqual({ type: "focusBox", box: 2 });
    expect(tableKeyAction({ key: "End" }, at5)).toEqual({ type: "focusBox", box: 9 });
    expect(tableKeyAction({ key: "ArrowDown" }, { openBoxes: [], focusedBox: null })).toBeNull();
  });

  it("scores the focused box with Enter, unless a control takes Enter itself", () => {
    const at9 = { ...ctx, focusedBox: 9 };
    expect(tableKeyAction({ key: "Enter" }, at9)).toEqual({ type: "scoreBox", box: 9 });
    expect(tableKeyAction({ key: "Enter", onControl: true }, at9)).toBeNull();
    expect(press("Enter")).toBeNull();
    expect(tableKeyAction({ key: "Enter" }, { ...ctx, focusedBox: 4 })).toBeNull(); // filled meanwhile
  });

  it("leaves typing and browser shortcuts alone", () => {
    expect(press("r", { inTextField: true })).toBeNull();
    expect(press("r", { ctrlKey: true })).toBeNull();
    expect(press("1", { metaKey: true })).toBeNull();
    expect(press("d", { altKey: true })).toBeNull();
    expect(press("x")).toBeNull();
  });
});
