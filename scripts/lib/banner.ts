// What `npm run dev` prints once the stack is up.
import { erc20Abi, formatEther, formatUnits } from "viem";

import { clients } from "./chain.ts";
import type { DevStack } from "./devStack.ts";
import { FUNDED_ACCOUNTS } from "../../ignition/modules/LocalDiceHall.ts";

/** The RPC URL the scripts use when given none (`--rpc-url`, env RPC_URL). */
export const DEFAULT_RPC_URL = "http://127.0.0.1:8545";

/**
 * The banner's "try" line: other scripts (simulate, preview) find the chain at DEFAULT_RPC_URL
 * only, so on another port the hint carries the URL.
 */
export function tryLines(rpcUrl: string): string[] {
  const rpcFlag = rpcUrl === DEFAULT_RPC_URL ? "" : ` --rpc-url ${rpcUrl}`;
  return [
    `  Try: npm run simulate -- --games 4${rpcFlag}     Stop: Ctrl-C`,
    `  Production build against this chain: npm run preview${rpcFlag ? ` --${rpcFlag}` : ""}`,
  ];
}

const round = (amount: string): string =>
  Number(amount).toLocaleString("en-US", { maximumFractionDigits: 2 });

export async function printBanner(stack: DevStack): Promise<void> {
  const { publicClient } = clients(stack.rpcUrl);
  const { diceHall, mockEntropy, testToken, entropyProvider } = stack.addresses;
  const funded = stack.accounts.slice(0, FUNDED_ACCOUNTS);
  const balances = await Promise.all(
    funded.map(async (account) => ({
      account,
      eth: await publicClient.getBalance({ address: account }),
      tusd: await publicClient.readContract({
        address: testToken,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [account],
      }),
    })),
  );
  const keeperLine = stack.keeper
    ? `reveals each roll ${stack.keeperDelayMs} ms after it is asked for (sender ${stack.accounts.at(-1)})`
    : "off";
  const onModel = stack.entropy === "model";
  const lines = [
    "",
    "  Dicehall local stack is up",
    "",
    `  Web app      ${stack.webUrl ?? "(not started: --no-web)"}`,
    `  JSON-RPC     ${stack.rpcUrl}   chain id ${stack.chainId}`,
    `  DiceHall     ${diceHall}   (from block ${stack.deployment.deploymentBlock})`,
    onModel
      ? `  Entropy      ${mockEntropy}   (our Entropy model) provider ${entropyProvider}`
      : `  MockEntropy  ${mockEntropy}   provider ${entropyProvider}`,
    ...(onModel
      ? [
          `  Revelations  ${stack.revelations}/revelations/<sequence>   (Fortuna's shape)`,
          `  Hall keeper  ${stack.hallKeeper ? "asks again for refused rolls, delivers stalled ones after 30 s" : "off"}`,
        ]
      : []),
    `  Test USD     ${testToken}   (TUSD, 6 decimals)`,
    `  Keeper       ${keeperLine}`,
    `  Indexer      ${stack.indexerUrl ? `${stack.indexerUrl}/api/leaderboard   (Ponder, embedded PGlite)` : "(not started: --no-indexer)"}`,
    "",
    "  Dev accounts (keys from the public test mnemonic “test test … junk”: never use them on a real chain)",
    ...balances.map(
      ({ account, eth, tusd }, i) =>
        `  #${String(i).padEnd(2)} ${account}  ${round(formatEther(eth))} ETH  ${round(formatUnits(tusd, 6))} TUSD` +
        (i === 0 ? "  (deployer, DiceHall owner)" : ""),
    ),
    "",
    ...tryLines(stack.rpcUrl),
    "",
  ];
  console.log(lines.join("\n"));
}
