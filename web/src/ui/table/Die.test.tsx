// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Die, TUMBLE_MS } from "./Die.tsx";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const label = () => screen.getByRole("button").getAttribute("aria-label");
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function roll(value: number | null, rolling: boolean) {
  return <Die index={0} value={value} kept={false} rolling={rolling} />;
}

describe("Die", () => {
  it("settles on the real value at the end of the cycle that is running, not a cycle later", () => {
    const view = render(roll(null, true));
    advance(TUMBLE_MS + 100); // the values arrive 100 ms into the second cycle
    view.rerender(roll(5, false));
    expect(label()).toBe("Die 1: rolling");
    advance(TUMBLE_MS - 101);
    expect(label()).toBe("Die 1: rolling");
    advance(1);
    expect(label()).toBe("Die 1: 5");
  });

  it("goes on in the same cycle when a roll starts again before the last one settled", () => {
    const view = render(roll(2, true));
    advance(100);
    view.rerender(roll(2, false));
    advance(200);
    view.rerender(roll(2, true));
    advance(400); // 700 ms since the tumble began
    view.rerender(roll(6, false));
    advance(TUMBLE_MS * 2 - 700 - 1);
    expect(label()).toBe("Die 1: rolling");
    advance(1);
    expect(label()).toBe("Die 1: 6");
  });

  it("shows the value at once for reduced motion", () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("reduce") }));
    const view = render(roll(null, true));
    advance(100);
    view.rerender(roll(4, false));
    expect(label()).toBe("Die 1: 4");
  });
});
