// `npm run keeper`: two keepers.
// - `npm run keeper -- --network base` (any network of hardhat.config.ts): the hall's keeper on a real
//   chain (scripts/lib/hallKeeper.ts): asks again for refused rolls and delivers stalled accepted ones
//   from Pyth's revelation service, paying from the network's account (its `<NAME>_DEPLOYER_KEY`).
//   --revelations URL overrides the deployment's service; --stall S the seconds before it delivers.
//   KEEPER_PAYOUT_KEY (a private key) gives the payouts an account of their own, so that a payout
//   waiting for its block never holds a retry's nonce back. KEEPER_TOKEN_PRICES
//   ("0xToken=wei,0xOther=wei": what a whole token is worth in wei) lets it weigh token payouts
//   against their gas; a token without a price is left for its players to withdraw.
// - without --network: the local entropy keeper on its own, for a node started some other way (the
//   dev stack runs one already). Flags: --rpc-url URL (env RPC_URL, default http://127.0.0.1:8545),
//   --delay MS (env KEEPER_DELAY_MS, default 1000), --poll MS (env KEEPER_POLL_MS, default 200),
//   --summary S (a line with the reveals of the last S seconds, default 30; 0 = a line per reveal).
import { parseArgs } from "node:util";
import { createWalletClient, custom, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { clients, errorLine, isUnreachable, sleep } from "./lib/chain.ts";
import { loadDeployment, type Deployment } from "./lib/deployments.ts";
import { DEFAULT_REVEAL_DELAY_MS, DEFAULT_SUMMARY_INTERVAL_MS, startKeeper } from "./lib/keeper.ts";

const { values } = parseArgs({
  options: {
    "rpc-url": { type: "string", default: process.env.RPC_URL ?? "http://127.0.0.1:8545" },
    delay: {
      type: "string",
      default: process.env.KEEPER_DELAY_MS ?? String(DEFAULT_REVEAL_DELAY_MS),
    },
    poll: { type: "string", default: process.env.KEEPER_POLL_MS ?? "200" },
    summary: { type: "string", default: String(DEFAULT_SUMMARY_INTERVAL_MS / 1000) },
    network: { type: "string" },
    revelations: { type: "string" },
    stall: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(
    "usage: npm run keeper -- --network NAME [--revelations URL] [--stall S]\n" +
      "       npm run keeper -- [--rpc-url URL] [--delay MS] [--poll MS] [--summary S]",
  );
  process.exit(0);
}
if (values.network !== undefined) {
  await runHallKeeper(values.network, values.revelations, values.stall);
}
const rpcUrl = values["rpc-url"];
const revealDelayMs = Number(values.delay);
const pollIntervalMs = Number(values.poll);
const summaryIntervalMs = Number(values.summary) * 1000;
if (
  !Number.isFinite(revealDelayMs) ||
  revealDelayMs < 0 ||
  !(pollIntervalMs > 0) ||
  !(summaryIntervalMs >= 0)
) {
  console.error("keeper: --delay must be a number of ms >= 0, --poll > 0 and --summary >= 0");
  process.exit(1);
}
const log = (line: string) => console.log(`[keeper] ${line}`);

// The node may still be starting, or still deploying: wait for both rather than fail.
const { publicClient } = clients(rpcUrl);
let deployment: (Deployment & { mockEntropy: Address }) | undefined;
let waitingFor = "";
for (let attempt = 0; deployment === undefined; attempt++) {
  let reason: string;
  try {
    const chainId = await publicClient.getChainId();
    const found = loadDeployment(chainId);
    if (found.mockEntropy === undefined) {
      console.error(
        `keeper: chain ${chainId}'s Entropy (${found.entropy}) is not MockEntropy: its provider's keeper reveals there, not this one. ` +
          "For the hall's keeper (asks again for refused rolls, delivers stalled ones): npm run keeper -- --network <name>",
      );
      process.exit(1);
    }
    const code = await publicClient.getCode({ address: found.mockEntropy });
    if (code !== undefined && code !== "0x") {
      deployment = { ...found, mockEntropy: found.mockEntropy };
      break;
    }
    reason = `MockEntropy at ${found.mockEntropy} (a deployment in progress, or a stale deployments file)`;
  } catch (err) {
    if (isUnreachable(err)) reason = `a node at ${rpcUrl} (start one with \`npm run dev\`)`;
    else reason = `a deployment: ${errorLine(err)}`;
  }
  if (reason !== waitingFor) log(`waiting for ${reason}`);
  waitingFor = reason;
  await sleep(Math.min(2000, 250 * 2 ** attempt));
}

const keeper = startKeeper({
  rpcUrl,
  mockEntropy: deployment.mockEntropy,
  fromBlock: BigInt(deployment.deploymentBlock),
  revealDelayMs,
  pollIntervalMs,
  summaryIntervalMs,
  log,
});
log(
  `revealing MockEntropy ${deployment.mockEntropy} requests on ${rpcUrl} ` +
    `${revealDelayMs} ms after they appear (Ctrl-C stops)`,
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void keeper.stop().then(() => {
      const { revealed, skipped, failed } = keeper.stats;
      log(`stopped: ${revealed} revealed, ${skipped} already answered, ${failed} given up`);
      process.exit(0);
    });
  });
}

/** The hall's keeper on a network of hardhat.config.ts; runs until Ctrl-C. */
async function runHallKeeper(
  name: string,
  revelationsFlag?: string,
  stall?: string,
): Promise<never> {
  const { network } = await import("hardhat");
  const { startHallKeeper } = await import("./lib/hallKeeper.ts");
  const { FORTUNA_SERVICES } = await import("@dicehall/core/contract/revelations.ts");
  const log = (line: string) => console.log(`[hall keeper] ${line}`);
  const connection = await network.connect({ network: name });
  const publicClient = await connection.viem.getPublicClient();
  const [wallet] = await connection.viem.getWalletClients();
  const payoutKey = process.env.KEEPER_PAYOUT_KEY;
  if (payoutKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(payoutKey)) {
    console.error("keeper: KEEPER_PAYOUT_KEY must be a private key, 0x and 64 hex digits");
    process.exit(1);
  }
  const payoutWallet =
    payoutKey === undefined
      ? undefined
      : createWalletClient({
          account: privateKeyToAccount(payoutKey as Hex),
          chain: publicClient.chain,
          transport: custom(connection.provider),
        });
  const tokenPricesWei = parseTokenPrices(process.env.KEEPER_TOKEN_PRICES ?? "");
  if (payoutWallet === undefined) {
    log("no KEEPER_PAYOUT_KEY: payouts share the retries' account, sent one at a time");
  }
  const chainId = await publicClient.getChainId();
  const deployment = loadDeployment(chainId);
  const revelations =
    revelationsFlag ?? deployment.revelations ?? FORTUNA_SERVICES[chainId] ?? undefined;
  if (revelations === undefined)
    log("no revelation service known: stalled rolls are not delivered");
  const keeper = startHallKeeper({
    publicClient: publicClient as never,
    wallet: wallet as never,
    payoutWallet: payoutWallet as never,
    tokenPricesWei,
    hall: deployment.diceHall,
    fromBlock: BigInt(deployment.deploymentBlock),
    revelations,
    stalledAfterSeconds: stall === undefined ? undefined : Number(stall),
    log,
  });
  log(
    `keeping hall ${deployment.diceHall} on ${name} (chain ${chainId}) moving as ` +
      `${wallet.account.address} (payouts as ${payoutWallet?.account.address ?? "the same"}); revelations from ${revelations ?? "nowhere"} (Ctrl-C stops)`,
  );
  return new Promise<never>(() => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        void keeper.stop().then(() => {
          const { retried, refused, advanced, delivered, paidOut, payOutsFailed, gasPaid } =
            keeper.stats;
          log(
            `stopped: ${retried} asked again, ${refused} refused again, ${advanced} commitments ` +
              `advanced, ${delivered} delivered, ${paidOut} paid out (${payOutsFailed} refused by ` +
              `their receiver); ${gasPaid} wei of gas`,
          );
          process.exit(0);
        });
      });
    }
  });
}

/** KEEPER_TOKEN_PRICES, "0xToken=wei,0xOther=wei"; exits with the entry it cannot read. */
function parseTokenPrices(text: string): Record<Address, bigint> {
  const prices: Record<Address, bigint> = {};
  for (const entry of text.split(",").filter((e) => e.trim() !== "")) {
    const match = /^\s*(0x[0-9a-fA-F]{40})\s*=\s*(\d+)\s*$/.exec(entry);
    if (match === null) {
      console.error(
        `keeper: KEEPER_TOKEN_PRICES: "${entry}" is not 0x<token address>=<wei for a whole token>`,
      );
      process.exit(1);
    }
    prices[match[1] as Address] = BigInt(match[2]);
  }
  return prices;
}
