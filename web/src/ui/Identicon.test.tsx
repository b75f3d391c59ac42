// @vitest-environment jsdom
import { cleanup, render, waitFor } from "@testing-library/react";
import { numberToHex, type Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Identicon } from "./Identicon.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const accounts = Array.from({ length: 20 }, (_, i) =>
  numberToHex(BigInt(i + 1) * 0x1111111111111n, { size: 20 }),
) as Address[];

const faces = (container: HTMLElement) => container.querySelectorAll(".identicon svg").length;

describe("Identicon", () => {
  it("draws a board's faces a few at a time, yielding to the page between batches", async () => {
    // Each look at the clock is a millisecond later: a batch has 4 ms, so three faces.
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (now += 1));
    const { container } = render(
      <>
        {accounts.map((a) => (
          <Identicon key={a} address={a} />
        ))}
      </>,
    );
    await waitFor(() => expect(faces(container)).toBeGreaterThan(0));
    // The first batch is on the page before the rest are drawn.
    expect(faces(container)).toBeLessThan(accounts.length);
    await waitFor(() => expect(faces(container)).toBe(accounts.length));
  });

  it("skips a face whose slot left the page before it was drawn, and draws the rest", async () => {
    const { container, rerender } = render(
      <>
        {accounts.map((a) => (
          <Identicon key={a} address={a} />
        ))}
      </>,
    );
    rerender(
      <>
        {accounts.slice(0, 5).map((a) => (
          <Identicon key={a} address={a} />
        ))}
      </>,
    );
    await waitFor(() => expect(faces(container)).toBe(5));
  });
});
