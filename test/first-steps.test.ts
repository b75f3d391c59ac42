import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";

import { ROOT } from "../scripts/lib/deployments.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";

// A newcomer's first steps (issue 11.4): `npm ci` on an old Node stops before downloading, and
// `npm run preview` serves a production build that talks to the running local stack.

/** A Node older than package.json's "engines" on this machine (Debian's), with its npm; or null. */
function oldNode(): { bin: string; npm: string } | null {
  for (const dir of ["/usr/bin", "/usr/local/bin", "/bin"]) {
    const bin = join(dir, "node");
    const npm = join(dir, "npm");
    if (!existsSync(bin) || !existsSync(npm)) continue;
    const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
    if (Number(/^v(\d+)/.exec(version)?.[1] ?? 99) < 22) return { bin, npm };
  }
  return null;
}

/** This process's environment without the npm_config_* that an `npm run` above it passes down. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_config_")),
  );
}

describe("npm ci on an old Node", () => {
  const old = oldNode();

  /** `npm ci --dry-run --offline` with the old Node in a copy of the project's install files. */
  function ciWithOldNode(withNpmrc: boolean): { code: number | null; out: string } {
    const dir = mkdtempSync(join(tmpdir(), "dicehall-engines-"));
    try {
      for (const f of ["package.json", "package-lock.json", ...(withNpmrc ? [".npmrc"] : [])]) {
        copyFileSync(join(ROOT, f), join(dir, f));
      }
      const run = spawnSync(old!.npm, ["ci", "--dry-run", "--offline", "--ignore-scripts"], {
        cwd: dir,
        encoding: "utf8",
        env: { ...cleanEnv(), PATH: `${join(old!.bin, "..")}:/usr/bin:/bin` },
        timeout: 120_000,
      });
      return { code: run.status, out: `${run.stdout}${run.stderr}` };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("refuses at once with EBADENGINE, because of .npmrc's engine-strict", (t) => {
    if (!old) return t.skip("no Node older than 22 on this machine");
    const strict = ciWithOldNode(true);
    assert.notEqual(strict.code, 0);
    assert.match(strict.out, /EBADENGINE/);
    assert.match(strict.out, /Required: \{"node":"\^22\.22\.2 \|\| \^24\.15\.0 \|\| >=26\.0\.0"\}/);
    // Without the project's .npmrc npm would only warn and go on to install.
    const lax = ciWithOldNode(false);
    assert.doesNotMatch(lax.out, /npm error code EBADENGINE/);
  });
});

describe("npm run preview", { timeout: 300_000 }, () => {
  let stack: DevStack | undefined;
  after(async () => stack?.stop());

  function preview(args: string[]) {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/preview.ts", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const onData = (chunk: Buffer) => (out += chunk.toString());
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    return { child, output: () => out, exited };
  }

  it("says how to start the stack when no node answers", async () => {
    const run = preview(["--rpc-url", "http://127.0.0.1:9"]);
    assert.equal(await run.exited, 1);
    assert.match(run.output(), /no node at http:\/\/127\.0\.0\.1:9\. Start the local stack first/);
  });

  it("serves a production build that talks to the stack's own RPC", async () => {
    stack = await startDevStack({ rpcPort: 0, web: false, keeper: false });
    const run = preview(["--rpc-url", stack.rpcUrl, "--port", "0"]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /at (http:\/\/\S+?)\/?\s/.exec(run.output());
          if (m) {
            clearInterval(timer);
            resolve(m[1]);
          }
        }, 200);
        void run.exited.then((code) => {
          clearInterval(timer);
          reject(new Error(`preview exited (${code}) before serving:\n${run.output()}`));
        });
      });
      const html = await (await fetch(`${url}/`)).text();
      // The home page is in the HTML, drawn at build time (web/prerender.ts), for the app to take over.
      assert.match(html, /<div id="root" data-prerendered="page">/);
      assert.match(html, /<h1 id="home-title">Dicehall<\/h1>/);
      // The bundle has the stack's RPC URL baked in, not the default port. The page names its
      // entry (added after the first paint); the entry's static imports are followed from it.
      const scripts = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map(
        (m) => new URL(m[1], url).href,
      );
      assert.ok(scripts.length > 0, "the page loads a bundle");
      let found = false;
      const seen = new Set(scripts);
      for (let i = 0; i < scripts.length; i++) {
        const js = await (await fetch(scripts[i])).text();
        if (js.includes(stack.rpcUrl)) found = true;
        for (const m of js.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
          const next = new URL(m[1], scripts[i]).href;
          if (!seen.has(next)) {
            seen.add(next);
            scripts.push(next);
          }
        }
      }
      assert.ok(found, `the build points at ${stack.rpcUrl}`);
    } finally {
      run.child.kill();
    }
  });
});
