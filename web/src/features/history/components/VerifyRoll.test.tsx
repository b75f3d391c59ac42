// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { keccak256, pad, toBytes, type Hex } from "viem";
import axe from "axe-core";
import type { RollRecord } from "@dicehall/core/game/gameState.ts";
import { ReplayControls } from "./ReplayControls.tsx";
import { VerifyRoll } from "./VerifyRoll.tsx";

const NAMED: Hex = keccak256(toBytes("dicehall"));

const roll = (over: Partial<RollRecord> = {}): RollRecord => ({
  player: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  rollNumber: 1,
  dice: [3, 4, 1, 3, 6],
  sequenceNumber: 42n,
  randomNumber: NAMED,
  keepMask: 0,
  previous: null,
  ...over,
});

afterEach(cleanup);

describe("VerifyRoll", () => {
  it("recomputes every die and says they match", async () => {
    const { container } = render(<VerifyRoll roll={roll()} chainId={31337} blockNumber={120n} />);
    expect(screen.getByTestId("verify-random").textContent).toBe(NAMED);
    expect(screen.getByTestId("verify-verdict").textContent).toMatch(
      /^All five dice match: 3, 4, 1, 3, 6/,
    );
    expect(screen.getAllByText("✓ same")).toHaveLength(5);
    expect(screen.getByText("sequence number 42")).toBeTruthy();
    // No explorer on the local chain, only its home page; the words say what answers there.
    expect(container.textContent).toMatch(/a stand-in for Pyth Entropy: our model of it/);
    expect(container.textContent).not.toMatch(/mock provider/);
    expect(screen.getByRole("link", { name: "Pyth’s Entropy explorer" }).getAttribute("href")).toBe(
      "https://entropy-explorer.pyth.network/",
    );
    const result = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
    expect(
      result.violations.filter((v) => v.impact === "serious" || v.impact === "critical"),
    ).toEqual([]);
  });

  it("flags dice that do not follow from the number", () => {
    render(<VerifyRoll roll={roll({ dice: [3, 4, 1, 3, 5] })} chainId={31337} blockNumber={1n} />);
    expect(screen.getByTestId("verify-verdict").textContent).toMatch(/do not match/);
    expect(screen.getAllByText("✗ differs")).toHaveLength(1);
  });

  it("shows kept dice of a re-roll and links the explorer on Base", () => {
    render(
      <VerifyRoll
        roll={roll({
          rollNumber: 2,
          dice: [2, 6, 6, 6, 1],
          randomNumber: pad("0x00", { size: 32 }),
          keepMask: 0b01010,
          previous: [6, 6, 6, 6, 6],
        })}
        chainId={8453}
        blockNumber={1n}
      />,
    );
    expect(screen.getAllByText("kept from the roll before")).toHaveLength(2);
    expect(screen.getByText("2 of 3, keeping die 2, 4")).toBeTruthy();
    expect(screen.getByRole("link", { name: /sequence number 42/ }).getAttribute("href")).toBe(
      "https://entropy-explorer.pyth.network/?chain=base&search=42",
    );
  });
});

describe("ReplayControls", () => {
  it("steps, jumps, plays and changes speed", () => {
    const onControl = vi.fn();
    render(
      <ReplayControls
        cursor={{ index: 0, playing: false, speed: 1 }}
        length={10}
        onControl={onControl}
      />,
    );
    expect((screen.getByRole("button", { name: /First/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    screen.getByRole("button", { name: /Forward/ }).click();
    screen.getByRole("button", { name: "Play" }).click();
    screen.getByRole("button", { name: /Last/ }).click();
    expect(onControl.mock.calls.map(([c]) => c.type)).toEqual(["next", "toggle", "last"]);
    expect(screen.getByRole("slider").getAttribute("aria-valuetext")).toBe("Step 1 of 10");
    expect(screen.getByRole("combobox", { name: "Speed" })).toBeTruthy();
  });
});
