// The system under test, started once for the whole browser suite: a Hardhat node with MockEntropy,
// DiceHall and Test USD (scripts/lib/devStack.ts, without its keeper and web server), our own
// entropy keeper (so tests can pause it to hold a roll pending), and the web app.
//
// The web app is served as a production build (`vite build` into a temp folder, then
// `vite preview`) by default: a few chunks instead of hundreds of modules per page load, and no
// dev-server surprises mid-test (a dependency re-optimisation or a file saved by someone else
// reloads every open page). E2E_WEB=dev serves it with the dev stack's own Vite dev server instead.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";

import { clients } from "../../../scripts/lib/chain.ts";
import {
  DEPLOYMENTS_FILE,
  LOCAL_CHAIN_ID,
  ROOT,
  writeDeployments,
  type Deployments,
} from "../../../scripts/lib/deployments.ts";
import { startDevStack, type DevStack } from "../../../scripts/lib/devStack.ts";
import { startKeeper, type Keeper } from "../../../scripts/lib/keeper.ts";
import { freePort } from "../../../scripts/lib/ports.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { PAGE_TIMEOUT_MS, STACK_START_TIMEOUT_MS, scaled } from "./timing.ts";

const HOST = "127.0.0.1";
const WEB_ROOT = join(ROOT, "web");
/**
 * Which Entropy the suite's hall asks: our model (the default since issue 27, as under `npm run dev`:
 * numbers revealed with `revealWithCallback`, a revelation service in Fortuna's shape) or Pyth's
 * MockEntropy (E2E_ENTROPY=mock).
 */
export const E2E_ENTROPY: "model" | "mock" = process.env.E2E_ENTROPY === "mock" ? "mock" : "model";
/** Short, so 26 rolls of a whole game do not wait long; still a real asynchronous reveal. */
export const KEEPER_DELAY_MS = Number(process.env.E2E_KEEPER_DELAY_MS ?? 300);
/**
 * How long a roll may wait for randomness before it can be asked again, on the suite's chain: the
 * contract's floor (30 min, the local default too), or longer on a slow machine
 * (E2E_TIMEOUT_SCALE > 1). A pending roll then stays pending for as long as a scenario holds the
 * keeper; a scenario about a late roll moves the chain's clock (increaseTime) instead of waiting.
 */
export const ENTROPY_TIMEOUT_S = Math.max(1800, Math.ceil(scaled(30 * 60_000) / 1000));

export interface E2EStack {
  rpcUrl: string;
  webUrl: string;
  /** "build" (vite build + preview) or "dev" (the dev stack's Vite dev server). */
  webMode: "build" | "dev";
  chain: DevStack;
  diceHall: Address;
  testToken: Address;
  mockEntropy: Address;
  accounts: Address[];
  publicClient: ReturnType<typeof clients>["publicClient"];
  /** Stops answering entropy requests (rolls stay pending) until `resumeKeeper`. */
  pauseKeeper(): Promise<void>;
  resumeKeeper(): void;
  keeperRunning(): boolean;
  /** Moves the chain's clock forward and mines a block with the new time. */
  increaseTime(seconds: number): Promise<void>;
  /**
   * Moves the chain's clock forward without mining: the chain's own next block (every
   * `chain.blockIntervalMs`, as on a real chain) carries the new time. A scenario about what the
   * chain does between moves uses this: a block mined by the test would hide a chain that stands
   * still between transactions (issue 32).
   */
  moveClock(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The app reads its contract addresses from core/generated/deployments.json (generated,
 * git-ignored). A fresh Hardhat chain deploys to the same addresses every time, so the entry is
 * normally already right; the file is only rewritten when it differs, so a dev server that someone
 * else runs on the same checkout is not disturbed.
 */
function ensureDeploymentsFile(chain: DevStack): void {
  let current: Deployments = {};
  if (existsSync(DEPLOYMENTS_FILE)) {
    try {
      current = JSON.parse(readFileSync(DEPLOYMENTS_FILE, "utf8")) as Deployments;
    } catch {
      current = {};
    }
  }
  const wanted: Deployments = { ...current, [String(LOCAL_CHAIN_ID)]: chain.deployment };
  if (JSON.stringify(current[String(LOCAL_CHAIN_ID)]) !== JSON.stringify(chain.deployment)) {
    writeDeployments(wanted, DEPLOYMENTS_FILE);
  }
}

async function servePreview(
  rpcUrl: string,
  indexerUrl: string | undefined,
  log: (line: string) => void,
) {
  process.env.VITE_RPC_URL = rpcUrl;
  process.env.VITE_CHAIN_ID = String(LOCAL_CHAIN_ID);
  if (indexerUrl) process.env.VITE_INDEXER_URL = indexerUrl;
  else delete process.env.VITE_INDEXER_URL;
  const { build, preview } = await import("vite");
  const outDir = mkdtempSync(join(tmpdir(), "dicehall-e2e-web-"));
  const started = Date.now();
  let server: Awaited<ReturnType<typeof preview>>;
  let port: number;
  try {
    await build({
      root: WEB_ROOT,
      logLevel: "error",
      clearScreen: false,
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
    log(`web: built in ${Date.now() - started} ms`);
    port = await freePort(HOST);
    server = await preview({
      root: WEB_ROOT,
      logLevel: "error",
      clearScreen: false,
      build: { outDir },
      preview: { host: HOST, port, strictPort: true, open: false },
    });
  } catch (err) {
    rmSync(outDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `http://${HOST}:${port}`,
    async close() {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the system, one named step at a time. A step that fails, or a start that takes longer
 * than `timeoutMs`, throws an error that names the step, how long it ran and which steps were done
 * (`StackStartError`), and whatever had started is stopped again.
 */
export async function startE2EStack(
  log: (line: string) => void = () => {},
  { timeoutMs = STACK_START_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<E2EStack> {
  const webMode = process.env.E2E_WEB === "dev" ? "dev" : "build";
  const cleanups: (() => Promise<void>)[] = [];
  // Once the start has failed or timed out, a step still running may yet start something:
  // that is stopped as soon as it is registered.
  let abandoned = false;
  const own = (cleanup: () => Promise<void>) => {
    if (abandoned) void cleanup().catch(() => {});
    else cleanups.push(cleanup);
  };
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((err: unknown) => log(`while stopping: ${String(err)}`));
    }
  };
  const steps = new StartSteps(log);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(steps.timedOut(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([start(webMode, own, stopAll, steps, log), timedOut]);
  } catch (err) {
    abandoned = true;
    await stopAll();
    throw err instanceof StackStartError ? err : steps.failed(err);
  } finally {
    clearTimeout(timer);
  }
}

/** The stack did not start: which step failed (or was still running), after how long. */
export class StackStartError extends Error {
  override name = "StackStartError";
}

/** The start's steps, timed, so that a failure says where it happened. */
class StartSteps {
  private readonly done: string[] = [];
  private current: { name: string; since: number } | undefined;
  private readonly began = Date.now();
  constructor(private readonly log: (line: string) => void) {}

  async run<T>(name: string, step: () => Promise<T>): Promise<T> {
    const since = Date.now();
    this.current = { name, since };
    try {
      const value = await step();
      this.done.push(`${name} (${seconds(Date.now() - since)})`);
      this.log(`stack: ${name} took ${seconds(Date.now() - since)}`);
      return value;
    } catch (err) {
      throw this.failed(err);
    } finally {
      if (this.current?.since === since) this.current = undefined;
    }
  }

  failed(err: unknown): StackStartError {
    if (err instanceof StackStartError) return err;
    const cause = err instanceof Error ? (err.stack ?? err.message) : String(err);
    const where = this.current
      ? `step "${this.current.name}" failed after ${seconds(Date.now() - this.current.since)}`
      : "it failed between steps";
    return new StackStartError(
      `The system under test did not start: ${where}.
${this.progress()}
Cause: ${cause}`,
      { cause: err },
    );
  }

  timedOut(timeoutMs: number): StackStartError {
    const where = this.current
      ? `step "${this.current.name}" was still running after ${seconds(Date.now() - this.current.since)}`
      : "no step was running";
    return new StackStartError(
      `The system under test did not start within ${seconds(timeoutMs)} ` +
        `(E2E_TIMEOUT_SCALE scales this): ${where}.
${this.progress()}`,
    );
  }

  private progress(): string {
    return `Done in ${seconds(Date.now() - this.began)}: ${this.done.join(", ") || "nothing"}.`;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function start(
  webMode: "build" | "dev",
  own: (cleanup: () => Promise<void>) => void,
  stopAll: () => Promise<void>,
  steps: StartSteps,
  log: (line: string) => void,
): Promise<E2EStack> {
  // As `npm run dev` does: compile first (a no-op when nothing changed). The artifacts may be
  // stale or instrumented (`npm run coverage` writes its own into artifacts/, too big to deploy).
  await steps.run("contracts: hardhat build", async () => {
    const { default: hre } = await import("hardhat");
    await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
  });

  const chain = await steps.run(
    `chain: Hardhat node and deployment${webMode === "dev" ? " and Vite dev server" : ""}`,
    async () => {
      const started = await startDevStack({
        host: HOST,
        rpcPort: 0,
        webPort: 0,
        web: webMode === "dev",
        keeper: false,
        entropy: E2E_ENTROPY,
        // The hall's keeper would answer what scenarios hold on purpose (a stalled or refused roll).
        hallKeeper: false,
        // The app reads the leaderboard, history and replays from it, as under `npm run dev`.
        indexer: true,
        indexerPort: 0,
        deploymentId: `devstack-e2e-${process.pid}`,
        // Written below, and only when it differs (see ensureDeploymentsFile).
        deploymentsFile: null,
        log,
      });
      own(() => started.stop());
      return started;
    },
  );
  ensureDeploymentsFile(chain);
  const { publicClient, wallet } = clients(chain.rpcUrl);
  await steps.run(`chain: entropy timeout at least ${ENTROPY_TIMEOUT_S} s`, async () => {
    const diceHall = chain.addresses.diceHall;
    const current = await publicClient.readContract({
      address: diceHall,
      abi: diceHallAbi,
      functionName: "entropyTimeout",
    });
    if (current >= ENTROPY_TIMEOUT_S) return;
    const owner = await publicClient.readContract({
      address: diceHall,
      abi: diceHallAbi,
      functionName: "owner",
    });
    const hash = await wallet(owner).writeContract({
      address: diceHall,
      abi: diceHallAbi,
      functionName: "setEntropyTimeout",
      args: [ENTROPY_TIMEOUT_S],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`setEntropyTimeout reverted (${hash})`);
  });

  let webUrl: string;
  if (webMode === "dev") {
    webUrl = chain.webUrl!;
  } else {
    const web = await steps.run("web: vite build and preview", async () => {
      const served = await servePreview(chain.rpcUrl, chain.indexerUrl, log);
      own(() => served.close());
      return served;
    });
    webUrl = web.url;
  }
  // Ready means answering: the app's page from the web server, a block number from the node.
  await steps.run("readiness: the node and the web server answer", async () => {
    await publicClient.getBlockNumber();
    const page = await fetch(webUrl, { signal: AbortSignal.timeout(PAGE_TIMEOUT_MS) });
    if (!page.ok) throw new Error(`${webUrl} answered ${page.status} ${page.statusText}`);
  });

  const { mockEntropy, testToken, diceHall } = chain.addresses;
  let keeper: Keeper | undefined;
  const resumeKeeper = () => {
    if (keeper) return;
    keeper = startKeeper({
      rpcUrl: chain.rpcUrl,
      mockEntropy,
      revelationOf: chain.revelationOf,
      fromBlock: BigInt(chain.deployment.deploymentBlock),
      revealDelayMs: KEEPER_DELAY_MS,
      pollIntervalMs: 100,
      log: (line) => log(`keeper: ${line}`),
    });
  };
  const pauseKeeper = async () => {
    const running = keeper;
    keeper = undefined;
    await running?.stop();
  };
  resumeKeeper();
  own(pauseKeeper);

  const rpc = publicClient.request as unknown as (args: {
    method: string;
    params: unknown[];
  }) => Promise<unknown>;

  return {
    rpcUrl: chain.rpcUrl,
    webUrl,
    webMode,
    chain,
    diceHall,
    testToken,
    mockEntropy,
    accounts: chain.accounts,
    publicClient,
    pauseKeeper,
    resumeKeeper,
    keeperRunning: () => keeper !== undefined,
    async increaseTime(seconds: number) {
      await rpc({ method: "evm_increaseTime", params: [seconds] });
      await rpc({ method: "evm_mine", params: [] });
    },
    async moveClock(seconds: number) {
      await rpc({ method: "evm_increaseTime", params: [seconds] });
    },
    stop: stopAll,
  };
}
