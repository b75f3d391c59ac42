import type { Address } from "viem";
import { FORTUNA_SERVICES } from "./revelations.ts";

/** The local chain's id (Hardhat's node): the dev stack, the tests and the local app run on it. */
export const LOCAL_CHAIN_ID = 31337;

/** One chain's entry in the deployment output (scripts/export-deployments.ts). */
export interface Deployment {
  chainId: number;
  diceHall: Address;
  testToken?: Address;
  mockEntropy?: Address;
  entropy: Address;
  /** Event backfill starts here: nothing of ours exists before it. */
  deploymentBlock: bigint;
  /**
   * The provider's public revelation service, `<base>/v1/chains/<chain>` in Fortuna's shape (see
   * revelations.ts): Pyth's Fortuna on real chains, the local keeper's server on the local chain.
   */
  revelations?: string;
}

/** One chain's entry as `core/generated/deployments.json` holds it. */
export interface DeploymentJson {
  chainId: number;
  diceHall: Address;
  testToken?: Address;
  mockEntropy?: Address;
  entropy: Address;
  deploymentBlock: number | string;
  revelations?: string;
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
      revelations: entry.revelations ?? FORTUNA_SERVICES[chainId],
    });
  }
  return out;
}
