// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { useEffect } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Later } from "./Later.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("Later", () => {
  it("mounts its children, and runs their effects, a task after its own first commit", async () => {
    vi.useFakeTimers();
    const started = vi.fn();
    function Watch() {
      useEffect(started, []);
      return <p>watching</p>;
    }
    render(
      <>
        <h1>Page</h1>
        <Later>
          <Watch />
        </Later>
      </>,
    );
    // The page is committed and its effects have run; the work under Later has not started.
    expect(screen.getByRole("heading", { name: "Page" })).toBeTruthy();
    expect(screen.queryByText("watching")).toBeNull();
    expect(started).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText("watching")).toBeTruthy();
    expect(started).toHaveBeenCalledOnce();
  });

  it("never mounts them when it is gone first", async () => {
    vi.useFakeTimers();
    const started = vi.fn();
    function Watch() {
      useEffect(started, []);
      return null;
    }
    const { unmount } = render(
      <Later>
        <Watch />
      </Later>,
    );
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(started).not.toHaveBeenCalled();
  });
});
