// Where the app and the scripts find the contracts: Ignition's deployment folders are the source,
// core/generated/deployments.json is what the app reads (written by export-deployments).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getAddress, type Address } from "viem";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const IGNITION_DEPLOYMENTS_DIR = join(ROOT, "ignition/deployments");
export const DEPLOYMENTS_FILE = join(ROOT, "core/generated/deployments.json");
export { LOCAL_CHAIN_ID } from "@dicehall/core/contract/deployments.ts";
import { LOCAL_CHAIN_ID } from "@dicehall/core/contract/deployments.ts";

/** One chain's contracts as the app sees them. */
export interface Deployment {
  chainId: number;
  diceHall: Address;
  testToken?: Address;
  mockEntropy?: Address;
  /** The Pyth Entropy contract DiceHall asks (MockEntropy on the local chain). */
  entropy: Address;
  /** The block DiceHall was created in: where event backfills start. */
  deploymentBlock: number;
  /** The provider's revelation service, `<base>/v1/chains/<chain>` (core/contract/revelations.ts). */
  revelations?: string;
}

/** Keyed by chain id as a string, as JSON keys are. */
export type Deployments = Record<string, Deployment>;

interface JournalMessage {
  type: string;
  futureId?: string;
  constructorArgs?: unknown[];
  receipt?: { blockNumber: number; contractAddress?: string };
  chainId?: number;
}

const contractName = (futureId: string): string => futureId.slice(futureId.indexOf("#") + 1);

/**
 * Reads one Ignition deployment folder (deployed_addresses.json and journal.jsonl). Returns
 * undefined for a folder without a DiceHall (another project's module, a half-done deployment).
 */
export function readIgnitionDeployment(deploymentDir: string): Deployment | undefined {
  const addressesFile = join(deploymentDir, "deployed_addresses.json");
  const journalFile = join(deploymentDir, "journal.jsonl");
  if (!existsSync(addressesFile) || !existsSync(journalFile)) return undefined;

  const addresses = JSON.parse(readFileSync(addressesFile, "utf8")) as Record<string, string>;
  const byName = new Map(
    Object.entries(addresses).map(([futureId, address]) => [
      contractName(futureId),
      { futureId, address: getAddress(address) },
    ]),
  );
  const diceHall = byName.get("DiceHall");
  if (diceHall === undefined) return undefined;

  let chainId: number | undefined;
  let entropy: Address | undefined;
  let deploymentBlock: number | undefined;
  for (const line of readFileSync(journalFile, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const message = JSON.parse(line) as JournalMessage;
    if (message.type === "DEPLOYMENT_INITIALIZE") chainId = message.chainId;
    if (message.futureId !== diceHall.futureId) continue;
    if (message.type === "DEPLOYMENT_EXECUTION_STATE_INITIALIZE") {
      entropy = getAddress(String(message.constructorArgs?.[0]));
    }
    if (message.type === "TRANSACTION_CONFIRM" && message.receipt?.contractAddress) {
      deploymentBlock = message.receipt.blockNumber;
    }
  }
  if (chainId === undefined || entropy === undefined || deploymentBlock === undefined) {
    throw new Error(
      `${journalFile}: cannot find the chain id, entropy or DiceHall's creation block`,
    );
  }
  const mockEntropy = byName.get("MockEntropy")?.address;
  const testToken = byName.get("TestToken")?.address;
  return {
    chainId,
    diceHall: diceHall.address,
    ...(testToken ? { testToken } : {}),
    ...(mockEntropy ? { mockEntropy } : {}),
    entropy,
    deploymentBlock,
  };
}

/** Every `chain-<id>` deployment with a DiceHall under ignition/deployments/. */
export function collectDeployments(deploymentsDir = IGNITION_DEPLOYMENTS_DIR): Deployments {
  const out: Deployments = {};
  if (!existsSync(deploymentsDir)) return out;
  const dirs = readdirSync(deploymentsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^chain-\d+$/.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  for (const dir of dirs) {
    const deployment = readIgnitionDeployment(join(deploymentsDir, dir));
    if (deployment !== undefined) out[String(deployment.chainId)] = deployment;
  }
  return out;
}

export function writeDeployments(deployments: Deployments, file = DEPLOYMENTS_FILE): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(deployments, null, 2) + "\n");
}

/**
 * The deployment a script should talk to on `chainId`: the exported file if it lists the chain,
 * else Ignition's folder. Throws an error that says what to run when there is none.
 */
export function loadDeployment(chainId: number, file = DEPLOYMENTS_FILE): Deployment {
  if (existsSync(file)) {
    const exported = (JSON.parse(readFileSync(file, "utf8")) as Deployments)[String(chainId)];
    if (exported !== undefined) return exported;
  }
  const fromIgnition = readIgnitionDeployment(join(IGNITION_DEPLOYMENTS_DIR, `chain-${chainId}`));
  if (fromIgnition !== undefined) return fromIgnition;
  const hint =
    chainId === LOCAL_CHAIN_ID
      ? "start the local stack with `npm run dev` (it deploys and exports the addresses)"
      : `deploy with \`npx hardhat ignition deploy ignition/modules/DiceHall.ts --network <name> --parameters ignition/parameters/<name>.json\`, then run \`npx tsx scripts/export-deployments.ts\``;
  throw new Error(`No DiceHall deployment found for chain ${chainId}: ${hint}.`);
}
