import { describe, expect, it } from "vitest";
import { navActive } from "./navActive.ts";

describe("navActive", () => {
  it("lights Play for the lobby, a new table and a table", () => {
    expect(navActive("/games")).toBe("play");
    expect(navActive("/games/new")).toBe("play");
    expect(navActive("/games/12")).toBe("play");
    expect(navActive("/games/12/")).toBe("play");
  });

  it("lights History for a replay and an analysis, though they live under /games", () => {
    expect(navActive("/games/12/replay")).toBe("history");
    expect(navActive("/games/12/analysis")).toBe("history");
    expect(navActive("/history")).toBe("history");
  });

  it("lights the other sections by their first segment, and none for home or unknown pages", () => {
    expect(navActive("/practice")).toBe("practice");
    expect(navActive("/leaderboard")).toBe("leaderboard");
    expect(navActive("/rules/yatzy")).toBe("rules");
    expect(navActive("/rules")).toBe("rules");
    expect(navActive("/")).toBeNull();
    expect(navActive("/gamesx")).toBeNull();
    expect(navActive("/nowhere")).toBeNull();
  });
});
