// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useHeldLabel } from "./useHeldLabel.ts";

describe("useHeldLabel", () => {
  it("keeps the label it was pressed with until the work is done", async () => {
    const { result, rerender } = renderHook(({ label }) => useHeldLabel(label), {
      initialProps: { label: "Approve TUSD and join for 5 TUSD" },
    });
    let finish!: () => void;
    let running!: Promise<void>;
    act(() => {
      running = result.current[1](() => new Promise<void>((resolve) => (finish = resolve)));
    });
    // The approval landed: the allowance now covers the bet, the join is being signed.
    rerender({ label: "Join for 5 TUSD" });
    expect(result.current[0]).toBe("Approve TUSD and join for 5 TUSD");
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current[0]).toBe("Join for 5 TUSD");
  });

  it("follows the label when nothing is running", () => {
    const { result, rerender } = renderHook(({ label }) => useHeldLabel(label), {
      initialProps: { label: "Join for 1 ETH" },
    });
    rerender({ label: "Join for 2 ETH" });
    expect(result.current[0]).toBe("Join for 2 ETH");
  });
});
