// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { chainNowMs, nextAnchor } from "@/chain/chainClock.ts";
import { CountdownText } from "./Countdown.tsx";

afterEach(cleanup);

describe("CountdownText", () => {
  it("counts to a contract deadline on the chain's clock, not this computer's", () => {
    // A 15-minute join window opened at chain time T; the chain runs 17 s ahead of this computer.
    const T = 1_700_000_000;
    const localNow = (T - 17) * 1000;
    const anchor = nextAnchor(undefined, { number: 5n, timestamp: BigInt(T) }, localNow);
    const { container } = render(
      <CountdownText deadline={BigInt(T + 900)} nowMs={chainNowMs(anchor, localNow)} />,
    );
    // Not "15:17": the window has 15 minutes left on the chain.
    expect(container.querySelector("[aria-hidden]")?.textContent).toBe("15:00");
    expect(container.querySelector("time")?.getAttribute("dateTime")).toBe(
      new Date((T + 900) * 1000).toISOString(),
    );
  });

  it("shows the expired text once the chain has reached the deadline", () => {
    const { container } = render(<CountdownText deadline={100} nowMs={100_000} expired="closed" />);
    expect(container.textContent).toBe("closed");
  });

  it("says its prefix only while time is left: never “move due in move overdue”", () => {
    const left = render(
      <CountdownText deadline={100} nowMs={40_000} prefix="move due in " expired="move overdue" />,
    );
    expect(left.container.textContent).toMatch(/^move due in 1:00/);
    cleanup();
    const over = render(
      <CountdownText deadline={100} nowMs={100_000} prefix="move due in " expired="move overdue" />,
    );
    expect(over.container.textContent).toBe("move overdue");
  });

  it("turns urgent in its last 30 seconds, for the eye and the ear", () => {
    const calm = render(<CountdownText deadline={100} nowMs={69_000} />);
    expect(calm.container.querySelector("time")?.className).toBe("countdown");
    expect(calm.container.querySelector(".sr-only")?.textContent).not.toMatch(/hurry/);
    cleanup();
    const { container } = render(<CountdownText deadline={100} nowMs={70_000} />);
    const time = container.querySelector("time")!;
    expect(time.className).toBe("countdown is-urgent");
    expect(time.dataset.urgent).toBe("true");
    expect(container.querySelector(".sr-only")?.textContent).toMatch(/, hurry$/);
  });
});
