// `npm run dev`: the whole system on this machine, in one terminal. See docs/OPERATORS.md, "Local
// stack". Flags (or env): --rpc-port N (RPC_PORT, default 8545), --web-port N (WEB_PORT, default
// 5173), --indexer-port N (INDEXER_PORT, default 42069), --no-web, --no-indexer, --keeper-delay MS
// (KEEPER_DELAY_MS, default 1000), --mock-entropy (Pyth's MockEntropy instead of our Entropy model).
// Ctrl-C stops everything.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "rpc-port": { type: "string", default: process.env.RPC_PORT ?? "8545" },
    "web-port": { type: "string", default: process.env.WEB_PORT ?? "5173" },
    "indexer-port": { type: "string", default: process.env.INDEXER_PORT ?? "42069" },
    "no-web": { type: "boolean", default: false },
    "no-indexer": { type: "boolean", default: false },
    "keeper-delay": { type: "string", default: process.env.KEEPER_DELAY_MS ?? "1000" },
    "mock-entropy": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(
    "usage: npm run dev -- [--rpc-port N] [--web-port N] [--indexer-port N] [--no-web]\n" +
      "                      [--no-indexer] [--keeper-delay MS] [--mock-entropy]\n" +
      "  ports may be 0 (any free port)",
  );
  process.exit(0);
}

function portFlag(name: "rpc-port" | "web-port" | "indexer-port"): number {
  const port = Number(values[name]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`dev: --${name} must be a port number, not "${values[name]}"`);
    process.exit(1);
  }
  return port;
}
const rpcPort = portFlag("rpc-port");
const webPort = portFlag("web-port");
const indexerPort = portFlag("indexer-port");
const indexer = !values["no-indexer"];
const keeperDelayMs = Number(values["keeper-delay"]);
if (!Number.isFinite(keeperDelayMs) || keeperDelayMs < 0) {
  console.error("dev: --keeper-delay must be a number of milliseconds >= 0");
  process.exit(1);
}
const web = !values["no-web"];
const say = (line: string) => console.log(`[dev] ${line}`);

// 0. Fail fast on a taken port or a missing app, before a build that may take a while.
const root = join(import.meta.dirname, "..");
if (web && !existsSync(join(root, "web/index.html"))) {
  console.error(
    "dev: the web app is not there yet (web/index.html is missing), so there is nothing to serve. " +
      "Start the chain, contracts and keeper without it: `npm run dev -- --no-web`.",
  );
  process.exit(1);
}
const { PortInUseError, assertPortFree } = await import("./lib/ports.ts");
try {
  await assertPortFree("127.0.0.1", rpcPort, "the chain's JSON-RPC", "--rpc-port");
  if (web) await assertPortFree("127.0.0.1", webPort, "the web app", "--web-port");
  if (indexer) {
    await assertPortFree("127.0.0.1", indexerPort, "the indexer's HTTP API", "--indexer-port");
  }
} catch (err) {
  if (!(err instanceof PortInUseError)) throw err;
  console.error(`dev: ${err.message}`);
  process.exit(1);
}

// 1. Build first: the stack's own modules import the ABIs that the build generates.
const { default: hre } = await import("hardhat");
const abis = join(root, "core/generated/abis.ts");
const artifact = join(root, "artifacts/contracts/DiceHall.sol/DiceHall.json");
const { buildContracts } = await import("./lib/buildContracts.ts");
await buildContracts({
  build: () => hre.tasks.getTask("build").run({ quiet: true, noTests: true }),
  built: existsSync(artifact),
  say,
});
if (!existsSync(artifact)) {
  console.error("dev: the build produced no DiceHall artifact (contracts/DiceHall.sol missing?)");
  process.exit(1);
}
if (!existsSync(abis) || statSync(abis).mtimeMs < statSync(artifact).mtimeMs) {
  await import("./export-abi.ts");
}

// 2. The stack.
const { startDevStack, WebAppMissingError } = await import("./lib/devStack.ts");
const { printBanner } = await import("./lib/banner.ts");
const { IndexerStartError } = await import("./lib/indexer.ts");

let stack: Awaited<ReturnType<typeof startDevStack>>;
try {
  stack = await startDevStack({
    rpcPort,
    webPort,
    web,
    indexer,
    indexerPort,
    keeperDelayMs,
    entropy: values["mock-entropy"] ? "mock" : "model",
    log: say,
  });
} catch (err) {
  if (err instanceof PortInUseError || err instanceof WebAppMissingError) {
    console.error(`dev: ${err.message}`);
    process.exit(1);
  }
  if (err instanceof IndexerStartError) {
    console.error(
      `dev: ${err.message}\ndev: the app works without it (it reads the chain itself): ` +
        "npm run dev -- --no-indexer",
    );
    process.exit(1);
  }
  throw err;
}
await printBanner(stack);

let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  say("stopping…");
  await stack.stop();
  say("stopped");
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
process.on("uncaughtException", (err) => {
  console.error("dev: unexpected error:", err);
  void shutdown(1);
});
