import { describe, expect, it } from "vitest";
import { renderPage, prerenderPaths } from "./prerender.tsx";
import { PAGE_PATHS, pageFile } from "./routes.ts";

// The build's prerender draws each page in Node as a first visit sees it: the page's own words
// (what a phone shows before the code is in) and no wallet, no read answered yet.
describe("the prerender", () => {
  it("draws a page whole: its heading, its words, the menu lit, a wallet to connect", async () => {
    const html = await renderPage("/leaderboard");
    expect(html).toContain("<h1>Leaderboard</h1>");
    expect(html).toContain("Every finished game of the hall");
    expect(html).toMatch(/<a class="nav__link active" aria-current="page" href="\/leaderboard"/);
    expect(html).toContain("Connect wallet");
    expect(html).not.toContain("Connecting…");
    expect(html).not.toContain("Loading…");
  });

  it("draws home and practice with the words a phone shows first", async () => {
    expect(await renderPage("/")).toContain("An on-chain Yahtzee hall.");
    expect(await renderPage("/practice")).toContain("No wallet, no chain, no bets");
  });

  it("draws a pattern's page as its loading state, with no game or player of its own", async () => {
    const game = await renderPage("/games/_id", true);
    expect(game).toContain("<h1>Game</h1>");
    expect(game).toContain("Reading the table from the chain");
    expect(await renderPage("/games/_id/replay", true)).toContain(
      "Reading the game from the chain…",
    );
    expect(game).not.toContain("No such game");
    const player = await renderPage("/players/_address", true);
    expect(player).toContain("<h1>Player</h1>");
    expect(player).toContain("Reading this player");
    expect(player).not.toContain("No such player");
    // Not a template: the same path is what it says.
    expect(await renderPage("/games/_id")).toContain("No such game");
  });

  it("draws the 404 page for a path with no page", async () => {
    expect(await renderPage("/nothing-here")).toContain("<h1>Nothing here</h1>");
  });

  it("has a file for every page, and each rule set's rules", () => {
    const files = prerenderPaths().map((p) => p.file);
    for (const path of PAGE_PATHS) expect(files).toContain(pageFile(path));
    for (const key of ["yahtzee", "yatzy", "yazty", "extended"])
      expect(files).toContain(`rules/${key}.html`);
    expect(new Set(files).size).toBe(files.length);
    expect(
      prerenderPaths()
        .filter((p) => p.template)
        .map((p) => p.path),
    ).toEqual(["/games/_id", "/games/_id/replay", "/games/_id/analysis", "/players/_address"]);
  });
});
