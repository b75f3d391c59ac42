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

/** One chain's entry as `core/generated/deployments.json` holds it. */
export interface DeploymentJson {
  chainId: number;
  diceHall: Address;
  testToken?: Address;
  mockEntropy?: Address;
  entropy: Address;
  deploymentBlock: number | string;
}

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
