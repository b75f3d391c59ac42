import { describe, expect, it } from "vitest";
import { zeroAddress } from "viem";
import { loadTablePrefs, saveTablePrefs } from "./tablePrefs.ts";

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

describe("table preferences", () => {
  it("remembers the last table per chain, bet and all", () => {
    const store = memoryStorage();
    const prefs = {
      token: zeroAddress,
      bet: 12_300_000_000_000_000n,
      seats: 3,
      ruleSet: 2,
      games: 5,
    };
    saveTablePrefs(31337, prefs, store);
    expect(loadTablePrefs(31337, store)).toEqual(prefs);
    expect(loadTablePrefs(8453, store)).toBeNull();
  });

  it("reads prefs saved before matches as a single game", () => {
    const store = memoryStorage();
    store.setItem(
      "dicehall.tablePrefs.1",
      JSON.stringify({ token: zeroAddress, bet: "5", seats: 2, ruleSet: 0 }),
    );
    expect(loadTablePrefs(1, store)?.games).toBe(1);
  });

  it("forgets what is not a table", () => {
    const store = memoryStorage();
    store.setItem("dicehall.tablePrefs.1", "{not json");
    expect(loadTablePrefs(1, store)).toBeNull();
    store.setItem("dicehall.tablePrefs.1", JSON.stringify({ token: "0x12", bet: "1" }));
    expect(loadTablePrefs(1, store)).toBeNull();
    expect(loadTablePrefs(1, undefined)).toBeNull();
  });
});
