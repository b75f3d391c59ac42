import type { Address } from "viem";

/** One chain's entry in the deployment output (scripts/export-deployments.ts). */
export interface Deployment {
  chainId: number;
  diceHall: Address;
  testToken?: Address;
  mockEntropy?: Address;
  entropy: Address;
  /** Event backfill starts here: nothing of ours exists before it. */
  deploymentBlock: bigint;
}

interface DeploymentJson {
  chainId: number;
  diceHall: Address;
  testToken?: Address;
  mockEntropy?: Address;
  entropy: Address;
  deploymentBlock: number | string;
}

// A glob instead of a plain import so the app still builds (and says "no deployment") before the
// deploy script has written the file.
const files = import.meta.glob<Record<string, DeploymentJson>>("./generated/deployments.json", {
  eager: true,
  import: "default",
});

export function parseDeployments(raw: Record<string, DeploymentJson>): Map<number, Deployment> {
  const out = new Map<number, Deployment>();
  for (const [key, entry] of Object.entries(raw)) {
    const chainId = Number(entry?.chainId ?? key);
    if (!entry?.diceHall || !Number.isInteger(chainId)) continue;
    out.set(chainId, {
      chainId,
      diceHall: entry.diceHall,
      testToken: entry.testToken,
      mockEntropy: entry.mockEntropy,
      entropy: entry.entropy,
      deploymentBlock: BigInt(entry.deploymentBlock ?? 0),
    });
  }
  return out;
}

const deployments = parseDeployments(Object.values(files)[0] ?? {});

export function deploymentFor(chainId: number | undefined): Deployment | undefined {
  return chainId === undefined ? undefined : deployments.get(chainId);
}

export function deployedChainIds(): number[] {
  return [...deployments.keys()];
}
