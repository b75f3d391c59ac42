// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { getAddress, type Address } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { distinctAddresses, useEnsNames } from "./ens.ts";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const creator = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as Address;
const guest = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" as Address;

describe("useEnsNames", () => {
  it("asks useQueries for each account once: no duplicate-key warning, render after render", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // What useGame passes: the players, the invitees, then the creator, who is also a player,
    // once checksummed and once lower-case.
    const everyone = [creator, guest, getAddress(guest), getAddress(creator)];
    const { rerender } = renderHook(({ list }) => useEnsNames(list), {
      wrapper,
      initialProps: { list: everyone },
    });
    rerender({ list: [...everyone] }); // the countdown re-renders the table every second
    const duplicates = warn.mock.calls.filter((args) => String(args[0]).includes("Duplicate"));
    expect(duplicates).toEqual([]);
    expect(client.getQueryCache().findAll({ queryKey: ["ens", "name"] })).toHaveLength(2);
  });
});

describe("distinctAddresses", () => {
  it("keeps the first spelling of each account, in order", () => {
    expect(distinctAddresses([getAddress(creator), guest, creator, getAddress(guest)])).toEqual([
      getAddress(creator),
      guest,
    ]);
  });
});
