import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { ROOT } from "../scripts/lib/deployments.ts";
import { stackIndexer, startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import { startIndexer } from "../scripts/lib/indexer.ts";

// The indexer is the stack's one child process: it must never outlive what started it, and when
// it dies on its own the stack says so (the app then reads the chain itself).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True once nothing answers at `url` any more. */
async function goneWithin(url: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
    } catch {
      return true;
    }
    await sleep(200);
  }
  return false;
}

describe("the indexer's process", { timeout: 5 * 60_000 }, () => {
  let stack: DevStack | undefined;

  before(async () => {
    stack = await startDevStack({
      rpcPort: 0,
      web: false,
      keeper: false,
      deploymentId: `devstack-indexer-process-${process.pid}`,
      deploymentsFile: null,
    });
  });

  after(async () => {
    await stack?.stop();
  });

  const options = (name: string) => ({
    port: 0,
    ...stackIndexer(stack!),
    dataDir: join(ROOT, ".dev", `indexer-${name}-${process.pid}`),
    removeOnStop: true,
  });

  it("ends when the process that started it is killed without a chance to stop it", async () => {
    const script = `
      const { startIndexer } = await import(${JSON.stringify(join(ROOT, "scripts/lib/indexer.ts"))});
      const indexer = await startIndexer(${JSON.stringify(options("orphan"))});
      console.log("URL " + indexer.url);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", script],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      parent.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /URL (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      parent.once("exit", (code) => reject(new Error(`the parent exited (${code}): ${out}`)));
    });
    assert.equal((await fetch(`${url}/health`)).status, 200);

    parent.kill("SIGKILL");
    assert.ok(await goneWithin(url, 15_000), `the indexer at ${url} outlived its parent`);
  });

  it("says so when it stops on its own", async () => {
    const lines: string[] = [];
    const indexer = await startIndexer({ ...options("crash"), log: (l) => lines.push(l) });
    try {
      process.kill(indexer.pid, "SIGKILL");
      assert.ok(await goneWithin(indexer.url, 10_000));
      for (let i = 0; i < 50 && !lines.some((l) => /stopped on its own/.test(l)); i++) {
        await sleep(100);
      }
      assert.ok(
        lines.some((l) => /stopped on its own \(SIGKILL\); the app falls back/.test(l)),
        lines.join("\n"),
      );
      await assert.rejects(indexer.waitForBlock(1n, 2_000), /the indexer stopped \(SIGKILL\)/);
    } finally {
      await indexer.stop();
    }
  });
});
