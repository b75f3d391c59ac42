// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import axe from "axe-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { boxOptions, newSheet } from "@dicehall/core/rules/sheet.ts";
import { AnnouncerProvider } from "../announce.tsx";
import { GameTable } from "./GameTable.tsx";
import type { TableHandlers, TableModel } from "@dicehall/core/game/tableModel.ts";

// An on-chain table's accounts (AddressName) ask for the connected wallet and ENS names.
vi.mock("wagmi", () => ({ useConnection: () => ({ address: undefined }) }));
vi.mock("@/chain/ens.ts", () => ({ useEnsName: () => null, useEnsAvatar: () => null }));

afterEach(cleanup);

function model(over: Partial<TableModel> = {}): TableModel {
  const mine = newSheet(0);
  mine.boxes[11] = 50; // Yahtzee already scored: five of a kind is a Joker
  const theirs = newSheet(0);
  theirs.boxes[0] = 3;
  const dice = [3, 3, 3, 3, 3];
  return {
    ruleSet: 0,
    players: [
      { id: "a", name: "You", isMe: true, sheet: mine, forfeited: false },
      { id: "b", name: "Bob", isMe: false, sheet: theirs, forfeited: false },
    ],
    currentSeat: 0,
    round: 2,
    rounds: 13,
    dice,
    rollsUsed: 1,
    maxRolls: 3,
    keepMask: 0b00001,
    rolling: false,
    myTurn: true,
    canRoll: true,
    rollLabel: "Re-roll (2 left)",
    rollHint: null,
    options: boxOptions(mine, dice),
    scoringSeat: 0,
    turnText: "Round 2 of 13. Your turn — 4:00 left.",
    log: [{ id: "1", text: "You rolled 3, 3, 3, 3, 3 (roll 1 of 3)." }],
    busyText: null,
    errorText: null,
    ...over,
  };
}

function setup(m: TableModel = model(), guardScores = false) {
  const handlers: TableHandlers = { onRoll: vi.fn(), onToggleKeep: vi.fn(), onScore: vi.fn() };
  const view = render(
    <AnnouncerProvider>
      <GameTable model={m} handlers={handlers} guardScores={guardScores} />
    </AnnouncerProvider>,
  );
  const rerender = (next: TableModel) =>
    view.rerender(
      <AnnouncerProvider>
        <GameTable model={next} handlers={handlers} guardScores={guardScores} />
      </AnnouncerProvider>,
    );
  return { ...view, handlers, rerender };
}

const live = () => screen.getByTestId("live-region");

describe("GameTable", () => {
  it("shows the dice with their values and which are kept", () => {
    setup();
    const dice = screen.getAllByRole("button", { name: /^Die \d/ });
    expect(dice.map((d) => d.getAttribute("aria-label"))).toEqual([
      "Die 1: 3, kept",
      "Die 2: 3",
      "Die 3: 3",
      "Die 4: 3",
      "Die 5: 3",
    ]);
    expect(dice[0].getAttribute("aria-pressed")).toBe("true");
    expect(dice[1].getAttribute("aria-pressed")).toBe("false");
  });

  it("never shows a number while the dice tumble", () => {
    setup(model({ rolling: true, keepMask: 0b00001 }));
    const dice = screen.getAllByRole("button", { name: /^Die \d/ });
    expect(dice[0].getAttribute("aria-label")).toBe("Die 1: 3, kept"); // kept dice stay put
    for (const die of dice.slice(1)) {
      expect(die.getAttribute("aria-label")).toBe(`Die ${dice.indexOf(die) + 1}: rolling`);
      expect(die.dataset.value).toBe("");
    }
  });

  it("toggles keep by click and rolls with the button", async () => {
    const { handlers } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Die 3: 3" }));
    expect(handlers.onToggleKeep).toHaveBeenCalledWith(2);
    await userEvent.click(screen.getByRole("button", { name: "Re-roll (2 left)" }));
    expect(handlers.onRoll).toHaveBeenCalledTimes(1);
  });

  it("offers the first roll, which draws the order, before any seat is current", async () => {
    const { handlers } = setup(
      model({
        currentSeat: null,
        dice: [null, null, null, null, null],
        rollsUsed: 0,
        keepMask: 0,
        options: null,
        rollLabel: "Roll for the turn order",
        rollCost: "no fee",
        rollHint: "The first roll draws the turn order.",
      }),
    );
    await userEvent.click(screen.getByRole("button", { name: "Roll for the turn order · no fee" }));
    expect(handlers.onRoll).toHaveBeenCalledTimes(1);
  });

  it("marks illegal boxes disabled with the reason and scores legal ones", async () => {
    const { handlers } = setup();
    // Joker: five 3s with Threes open must go in Threes.
    const threes = screen.getByTestId("box-2");
    expect(threes.getAttribute("aria-disabled")).toBeNull();
    expect(threes.getAttribute("aria-label")).toBe(
      "Threes: score 115, including a 100 Yahtzee bonus",
    );
    const chance = screen.getByTestId("box-12");
    expect(chance.getAttribute("aria-disabled")).toBe("true");
    expect(chance.getAttribute("aria-label")).toMatch(/^Chance: open\. Joker rule/);
    await userEvent.click(chance);
    expect(handlers.onScore).not.toHaveBeenCalled();
    expect(screen.getByTestId("blocked-reason").textContent).toMatch(/Joker rule/);
    await userEvent.click(threes);
    expect(handlers.onScore).toHaveBeenCalledWith(2);
  });

  it("dispatches the table keys", async () => {
    const { handlers } = setup();
    fireEvent.keyDown(window, { key: "r" });
    expect(handlers.onRoll).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(window, { key: "4" });
    expect(handlers.onToggleKeep).toHaveBeenCalledWith(3);
    fireEvent.keyDown(window, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("box-0"));
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByTestId("box-2"));
    await userEvent.keyboard("{Enter}");
    expect(handlers.onScore).toHaveBeenCalledWith(2);
  });

  it("ignores keys typed into a text field", () => {
    const { handlers, container } = setup();
    const input = document.createElement("input");
    container.appendChild(input);
    fireEvent.keyDown(input, { key: "r" });
    expect(handlers.onRoll).not.toHaveBeenCalled();
  });

  it("opens the key list with ? and closes it with Escape", () => {
    setup();
    fireEvent.keyDown(window, { key: "?" });
    const dialog = screen.getByRole("dialog", { name: "Keys at the table" });
    expect(within(dialog).getByText("Read the dice")).toBeTruthy();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("reads the dice, the sheet, the scores and the turn into the live region", async () => {
    setup();
    fireEvent.keyDown(window, { key: "d" });
    await waitFor(() =>
      expect(live().textContent).toBe("Dice: 3, 3, 3, 3, 3. Roll 1 of 3. Keeping die 1."),
    );
    fireEvent.keyDown(window, { key: "t" });
    await waitFor(() => expect(live().textContent).toBe("Round 2 of 13. Your turn — 4:00 left."));
    fireEvent.keyDown(window, { key: "s" });
    await waitFor(() =>
      // I have filled one box, Bob one: round 1 is over for both, round 2 is being played.
      expect(live().textContent).toBe("Totals after round 1 of 13: You 50; Bob 3."),
    );
    fireEvent.keyDown(window, { key: "c" });
    await waitFor(() =>
      expect(live().textContent).toMatch(
        /^Your sheet: Ones open, not allowed now; .*Threes open, would score 115/,
      ),
    );
  });

  it("announces new log lines politely, not the ones already there", async () => {
    const { rerender } = setup();
    expect(live().getAttribute("aria-live")).toBe("polite");
    await act(async () => new Promise((r) => setTimeout(r, 100)));
    expect(live().textContent).toBe("");
    rerender(model({ log: [...model().log, { id: "2", text: "You scored 15 in Threes." }] }));
    await waitFor(() => expect(live().textContent).toBe("You scored 15 in Threes."));
  });

  it("announces the turn passing", async () => {
    const { rerender } = setup();
    rerender(
      model({
        currentSeat: 1,
        myTurn: false,
        turnText: "Round 2 of 13. Bob's turn — 5:00 left.",
        log: [...model().log, { id: "2", text: "You scored 15 in Threes." }],
      }),
    );
    await waitFor(() =>
      expect(live().textContent).toBe(
        "You scored 15 in Threes. Round 2 of 13. Bob's turn — 5:00 left.",
      ),
    );
  });

  it("lets a player whose turn it is not ask again for a roll that is out, by button and by R", async () => {
    const { handlers } = setup(
      model({
        currentSeat: 1,
        myTurn: false,
        canRoll: true,
        rolling: false,
        options: null,
        rollLabel: "Ask for the dice again",
        rollCost: "no fee",
        rollHint: "Randomness for request #7 is late. You can ask for the dice again.",
      }),
    );
    const ask = screen.getByRole("button", { name: /^Ask for the dice again/ });
    await userEvent.click(ask);
    expect(handlers.onRoll).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.body, { key: "r" });
    expect(handlers.onRoll).toHaveBeenCalledTimes(2);
  });

  it("shows no roll button to a player whose turn it is not when they cannot roll", () => {
    setup(model({ currentSeat: 1, myTurn: false, canRoll: false, options: null }));
    expect(screen.queryByRole("button", { name: /^Re-roll/ })).toBeNull();
  });

  it("explains boxes and roll that the move clock has switched off", async () => {
    const reason = "Your time for this move is up: any other player can now time you out.";
    const { handlers } = setup(
      model({ canRoll: false, options: null, blockedReason: reason, rollHint: reason }),
    );
    expect((screen.getByRole("button", { name: /^Re-roll/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    const chance = screen.getByTestId("box-12");
    expect(chance.getAttribute("aria-disabled")).toBe("true");
    expect(chance.getAttribute("aria-label")).toBe(`Chance: open. ${reason}`);
    await userEvent.click(chance);
    expect(handlers.onScore).not.toHaveBeenCalled();
    expect(screen.getByTestId("blocked-reason").textContent).toBe(`Chance: ${reason}`);
  });

  it("names the dice after their player, and greys the last turn's dice", () => {
    const { container } = setup(
      model({ diceTitle: "Bob's last dice", diceFromLastTurn: true, myTurn: false }),
    );
    expect(screen.getByRole("region", { name: "Bob's last dice" })).toBeTruthy();
    expect(container.querySelector(".tray--last")).not.toBeNull();
    expect(screen.getAllByRole("button", { name: /^Die \d: 3/ })).toHaveLength(5);
  });

  it("shows the latest moves in the turn log, the earlier ones on request", async () => {
    const log = Array.from({ length: 20 }, (_, i) => ({ id: String(i), text: `Move ${i + 1}.` }));
    setup(model({ log }));
    const list = () =>
      within(screen.getByRole("region", { name: "Turn log" })).getAllByRole("listitem");
    expect(list().map((li) => li.textContent)).toEqual(
      Array.from({ length: 8 }, (_, i) => `Move ${20 - i}.`),
    );
    await userEvent.click(screen.getByRole("button", { name: "Show 12 earlier" }));
    expect(list()).toHaveLength(20);
  });

  it("shows an on-chain table's players by face in the sheet's headers and the turn log", () => {
    const bob = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const;
    const base = model();
    setup(
      model({
        players: [base.players[0], { ...base.players[1], name: "0x7099…79C8", address: bob }],
        log: [
          { id: "1", text: "0x7099…79C8 rolled 3, 3, 3, 3, 3 (roll 1 of 3).", player: bob },
          { id: "2", text: "The first roll drew the turn order: you and 0x7099…79C8." },
        ],
      }),
    );
    const sheet = screen.getByRole("table", { name: "Score sheets" });
    const header = within(sheet).getAllByRole("columnheader")[2];
    expect(
      within(header).getByRole("button", { name: "Full address of 0x7099…79C8" }),
    ).toBeTruthy();
    const items = within(screen.getByRole("region", { name: "Turn log" })).getAllByRole("listitem");
    expect(
      items.map((li) =>
        within(li)
          .queryAllByRole("button")
          .map((b) => b.getAttribute("aria-label")),
      ),
    ).toEqual([[], ["Full address of 0x7099…79C8"]]);
  });

  it("says how far the upper bonus is only while it can still come", () => {
    const done = newSheet(0);
    done.boxes = done.boxes.map((_, i) => (i < 6 ? i + 1 : 0)); // upper total 21: bonus missed
    const open = newSheet(0);
    open.boxes[0] = 3; // 60 to go
    const base = model();
    setup(
      model({
        players: [
          { ...base.players[0], sheet: open },
          { ...base.players[1], sheet: done },
        ],
      }),
    );
    const row = screen.getByRole("row", { name: /^Upper bonus/ });
    expect(
      within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["60 to go", "0"]);
  });

  it("has no axe violations", async () => {
    const { container } = setup();
    const results = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`),
    ).toEqual([]);
  });

  describe("scoring you can see", () => {
    // 2 2 3 3 3 on a fresh sheet: Full House 25, Ones 0, Twos 4.
    const fullHouse = () => {
      const mine = newSheet(0);
      const dice = [2, 2, 3, 3, 3];
      const base = model();
      return model({
        dice,
        keepMask: 0,
        players: [{ ...base.players[0], sheet: mine }, base.players[1]],
        options: boxOptions(mine, dice),
      });
    };

    it("keeps the chosen box marked while its transaction is out, the others shown but disabled", async () => {
      const { rerender, handlers } = setup(fullHouse(), true);
      rerender({ ...fullHouse(), scoring: { box: 8, points: 25 } });
      const chosen = screen.getByTestId("box-8");
      expect(chosen.getAttribute("aria-label")).toBe("Scoring Full House: 25…");
      expect(chosen.getAttribute("aria-busy")).toBe("true");
      expect(chosen.textContent).toBe("25…");
      expect(screen.getByTestId("scoring-box").textContent).toBe("Scoring Full House: 25…");
      const chance = screen.getByTestId("box-12");
      expect(chance.textContent).toBe("13");
      expect(chance.getAttribute("aria-disabled")).toBe("true");
      expect(chance.getAttribute("aria-label")).toBe(
        "Chance: would score 13. Not now: Full House is being scored.",
      );
      await userEvent.click(chance);
      expect(handlers.onScore).not.toHaveBeenCalled();
      // Screen readers hear the same words.
      await waitFor(() => expect(live().textContent).toMatch(/Scoring Full House: 25…/));
    });

    it("asks for a second press before scoring 0, and says why", async () => {
      const { handlers } = setup(fullHouse(), true);
      const ones = screen.getByTestId("box-0");
      expect(ones.dataset.confirm).toBe("ask");
      await userEvent.click(ones);
      expect(handlers.onScore).not.toHaveBeenCalled();
      expect(screen.getByTestId("score-confirm").textContent).toMatch(
        /^Ones scores 0 with these dice\. Your best box now is Full House for 25\. Press again/,
      );
      await waitFor(() => expect(live().textContent).toMatch(/Press again to score 0 in Ones/));
      await userEvent.click(ones);
      expect(handlers.onScore).toHaveBeenCalledWith(0);
    });

    it("a press on another box starts over; the best box scores at once", async () => {
      const { handlers } = setup(fullHouse(), true);
      await userEvent.click(screen.getByTestId("box-0"));
      await userEvent.click(screen.getByTestId("box-7")); // Four of a Kind: 0, asks too
      expect(handlers.onScore).not.toHaveBeenCalled();
      expect(screen.getByTestId("score-confirm").textContent).toMatch(
        /^Four of a Kind scores 0 with these dice/,
      );
      await userEvent.click(screen.getByTestId("box-8"));
      expect(handlers.onScore).toHaveBeenCalledWith(8);
    });

    it("guards the keyboard too: Enter twice on a box worth 0", async () => {
      const { handlers } = setup(fullHouse(), true);
      fireEvent.keyDown(window, { key: "ArrowDown" });
      expect(document.activeElement).toBe(screen.getByTestId("box-0"));
      await userEvent.keyboard("{Enter}");
      expect(handlers.onScore).not.toHaveBeenCalled();
      await userEvent.keyboard("{Enter}");
      expect(handlers.onScore).toHaveBeenCalledWith(0);
    });

    it("practice tables without the guard score a 0 at one press", async () => {
      const { handlers } = setup(fullHouse());
      await userEvent.click(screen.getByTestId("box-0"));
      expect(handlers.onScore).toHaveBeenCalledWith(0);
    });
  });

  it("marks the turn line urgent in the move's last 30 seconds", () => {
    const { container } = setup(
      model({ urgent: true, turnText: "Round 2 of 13. Your turn — 0:25 left." }),
    );
    const line = container.querySelector(".table__turn")!;
    expect(line.className).toMatch(/is-urgent/);
    expect(line.textContent).toMatch(/Hurry: under 30 seconds left\.$/);
  });
});
