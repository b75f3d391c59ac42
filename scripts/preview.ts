// `npm run preview`: the production build of the web app, served against the running local stack
// (`npm run dev`) instead of the dev server. The build bakes in the chain's RPC URL and the
// deployments file the stack wrote, so it is built here, after checking both, every time.
// Flags: --rpc-url URL (env RPC_URL, default http://127.0.0.1:8545), --port N (default 4173),
// --indexer-url URL (env VITE_INDEXER_URL, default http://127.0.0.1:42069; "" for none: the app
// then scans the chain itself, as it also does when the indexer does not answer).
import { join } from "node:path";
import { parseArgs } from "node:util";

import { clients, errorLine, isUnreachable } from "./lib/chain.ts";
import { ROOT, loadDeployment } from "./lib/deployments.ts";
import { DEFAULT_RPC_URL } from "./lib/banner.ts";
import { DEFAULT_INDEXER_PORT } from "./lib/indexer.ts";

const { values } = parseArgs({
  options: {
    "rpc-url": { type: "string", default: process.env.RPC_URL ?? DEFAULT_RPC_URL },
    port: { type: "string", default: "4173" },
    "indexer-url": {
      type: "string",
      default: process.env.VITE_INDEXER_URL ?? `http://127.0.0.1:${DEFAULT_INDEXER_PORT}`,
    },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log("usage: npm run preview -- [--rpc-url URL] [--port N] [--indexer-url URL]");
  process.exit(0);
}
const rpcUrl = values["rpc-url"];
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`preview: --port must be a port number, not "${values.port}"`);
  process.exit(1);
}

const { publicClient } = clients(rpcUrl);
let chainId: number;
try {
  chainId = await publicClient.getChainId();
} catch (err) {
  if (!isUnreachable(err)) throw err;
  console.error(
    `preview: no node at ${rpcUrl}. Start the local stack first (npm run dev), or pass the ` +
      "--rpc-url its banner shows.",
  );
  process.exit(1);
}
try {
  const { diceHall } = loadDeployment(chainId);
  const code = await publicClient.getCode({ address: diceHall });
  if (code === undefined || code === "0x") {
    throw new Error(`no DiceHall at ${diceHall} on ${rpcUrl}: is this the stack that wrote it?`);
  }
} catch (err) {
  console.error(`preview: ${errorLine(err)}`);
  process.exit(1);
}

// The app reads these at build time (web/src/chain/chains.ts).
process.env.VITE_RPC_URL = rpcUrl;
process.env.VITE_CHAIN_ID = String(chainId);
process.env.VITE_INDEXER_URL = values["indexer-url"];
const { build, preview } = await import("vite");
const root = join(ROOT, "web");
await build({ root, logLevel: "warn" });
const server = await preview({ root, preview: { port, strictPort: port !== 0, open: false } });
console.log(
  `preview: the production build, against ${rpcUrl} (chain ${chainId}), at ` +
    `${server.resolvedUrls?.local[0] ?? `port ${port}`}   Stop: Ctrl-C`,
);
