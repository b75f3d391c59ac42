import { describe, expect, it } from "vitest";
import { NOT_FOUND_FILE, PAGE_PATHS, matchPage, pageFile } from "./routes.ts";
import { loadAfterFirstPaint, redirectsFile } from "../prerender.ts";
import { readRedirects, resolvePage } from "../../scripts/lib/staticServer.ts";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("the app's paths", () => {
  it("match as the router matches them: static before pattern, any case, a trailing slash", () => {
    expect(matchPage("/")).toBe("/");
    expect(matchPage("/games/new")).toBe("/games/new");
    expect(matchPage("/games/31")).toBe("/games/:id");
    expect(matchPage("/games/31/replay")).toBe("/games/:id/replay");
    expect(matchPage("/Leaderboard/")).toBe("/leaderboard");
    expect(matchPage("/players/0xabc")).toBe("/players/:address");
    expect(matchPage("/rules")).toBe("/rules");
    expect(matchPage("/rules/yatzy")).toBe("/rules/:ruleSet");
    expect(matchPage("/games/31/nothing")).toBeUndefined();
    expect(matchPage("/nope")).toBeUndefined();
  });

  it("name one file each, a parameter with an underscore", () => {
    expect(pageFile("/")).toBe("index.html");
    expect(pageFile("/games/new")).toBe("games/new.html");
    expect(pageFile("/games/:id")).toBe("games/_id.html");
    expect(pageFile("/games/:id/analysis")).toBe("games/_id/analysis.html");
    expect(new Set(PAGE_PATHS.map(pageFile)).size).toBe(PAGE_PATHS.length);
  });

  it("give static hosts one rewrite a pattern, the longer first, and the 404 last", () => {
    const lines = redirectsFile().trim().split("\n");
    expect(lines[0]).toBe("/games/:id/replay /games/_id/replay.html 200");
    expect(lines).toContain("/games/:id /games/_id.html 200");
    expect(lines.indexOf("/games/:id/replay /games/_id/replay.html 200")).toBeLessThan(
      lines.indexOf("/games/:id /games/_id.html 200"),
    );
    expect(lines.at(-1)).toBe(`/* /${NOT_FOUND_FILE} 404`);
    expect(lines.filter((l) => l.includes(":"))).toHaveLength(
      PAGE_PATHS.filter((p) => p.includes(":")).length,
    );
  });

  it("are answered by their own file, their pattern's, or the 404 page", () => {
    const dir = mkdtempSync(join(tmpdir(), "dicehall-routes-"));
    mkdirSync(join(dir, "games"));
    mkdirSync(join(dir, "rules"));
    for (const f of [
      "index.html",
      "leaderboard.html",
      "games/_id.html",
      "rules/yatzy.html",
      "404.html",
    ])
      writeFileSync(join(dir, f), f);
    // As the preview server and the bench's static host answer: by the build's `_redirects`.
    writeFileSync(join(dir, "_redirects"), redirectsFile());
    const rules = readRedirects(dir);
    const answer = (path: string) => resolvePage(dir, path, rules);
    expect(answer("/")).toEqual({ file: join(dir, "index.html"), status: 200 });
    expect(answer("/leaderboard")).toEqual({ file: join(dir, "leaderboard.html"), status: 200 });
    expect(answer("/games/31")).toEqual({ file: join(dir, "games/_id.html"), status: 200 });
    expect(answer("/rules/yatzy")).toEqual({ file: join(dir, "rules/yatzy.html"), status: 200 });
    expect(answer("/players/0xabc")).toEqual({ file: join(dir, "404.html"), status: 404 });
    expect(answer("/nope")).toEqual({ file: join(dir, "404.html"), status: 404 });
  });
});

describe("the built index.html", () => {
  const built = `<head>
    <link rel="modulepreload" crossorigin href="/assets/lib-1.js">
    <script type="module" crossorigin src="/assets/index-2.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-3.css">
  </head>
  <body><div id="root"></div></body>`;

  it("loads the app's code only after the first paint, with no preloads before it", () => {
    const html = loadAfterFirstPaint(built);
    expect(html).not.toContain('<script type="module" crossorigin src=');
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-3.css">');
    const boot = /<script>(.*)<\/script>\s*<\/body>/.exec(html)?.[1] ?? "";
    expect(boot).toContain('observe({type:"paint",buffered:true})');
    expect(boot).toContain('s.src="/assets/index-2.js"');
    expect(boot).toContain('s.type="module"');
  });

  /** The boot script run against a stand-in page: what it appends, and when. */
  function runBoot(visible: boolean) {
    const boot = /<script>(.*)<\/script>\s*<\/body>/.exec(loadAfterFirstPaint(built))?.[1] ?? "";
    const appended: { src?: string; type?: string }[] = [];
    const timers: (() => void)[] = [];
    let onPaint: (() => void) | null = null;
    class Observer {
      constructor(callback: (list: unknown, observer: Observer) => void) {
        onPaint = () => callback({}, this);
      }
      observe() {}
      disconnect() {
        onPaint = null;
      }
    }
    const listeners: ((event: { preventDefault(): void }) => void)[] = [];
    const document = {
      documentElement: { dataset: {} as Record<string, string> },
      addEventListener: (type: string, listener: (typeof listeners)[number]) => {
        if (type === "submit") listeners.push(listener);
      },
      visibilityState: visible ? "visible" : "hidden",
      createElement: () => ({}),
      head: { appendChild: (s: { src?: string; type?: string }) => appended.push(s) },
    };
    new Function("document", "window", "PerformanceObserver", "setTimeout", boot)(
      document,
      { PerformanceObserver: Observer },
      Observer,
      (fn: () => void) => timers.push(fn),
    );
    /** A form sent now: whether the browser would go on and send it. */
    const submit = () => {
      let sent = true;
      for (const listener of listeners) listener({ preventDefault: () => (sent = false) });
      return sent;
    };
    return { appended, timers, paint: () => onPaint?.(), submit, document };
  }

  it("adds the entry once the first paint is reported, once", () => {
    const page = runBoot(true);
    expect(page.appended).toEqual([]);
    page.paint();
    for (const fire of page.timers.splice(0)) fire();
    expect(page.appended).toEqual([{ type: "module", crossOrigin: "", src: "/assets/index-2.js" }]);
    page.paint();
    for (const fire of page.timers.splice(0)) fire();
    expect(page.appended).toHaveLength(1);
  });

  it("holds a form sent before the app runs (the page would reload and lose it), not after", () => {
    const page = runBoot(true);
    expect(page.submit()).toBe(false);
    page.document.documentElement.dataset.app = "running";
    expect(page.submit()).toBe(true);
  });

  it("adds the entry at once in a tab opened in the background, which paints nothing", () => {
    expect(runBoot(false).appended).toHaveLength(1);
  });

  it("refuses a build without its entry rather than ship a page with no code", () => {
    expect(() => loadAfterFirstPaint("<body></body>")).toThrow(/no module entry script/);
  });
});
