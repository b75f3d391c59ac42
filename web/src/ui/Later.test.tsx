// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { useEffect } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { Later, useLater } from "./Later.tsx";

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

  it("useLater holds a read back out of the first commit and starts it in the next task", async () => {
    vi.useFakeTimers();
    const read = vi.fn(async () => "0.001 ETH");
    function Fee() {
      const fee = useQuery({ queryKey: ["fee"], queryFn: read, enabled: useLater() });
      return <p>fee {fee.data ?? "…"}</p>;
    }
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Fee />
      </QueryClientProvider>,
    );
    // Drawn, without the read having started.
    expect(screen.getByText("fee …")).toBeTruthy();
    expect(read).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(read).toHaveBeenCalledOnce();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText("fee 0.001 ETH")).toBeTruthy();
  });
});
