import {
  parseDeployments,
  type Deployment,
  type DeploymentJson,
} from "@dicehall/core/contract/deployments.ts";

export type { Deployment };

// A glob instead of a plain import so the app still builds (and says "no deployment") before the
// deploy script has written the file.
const files = import.meta.glob<Record<string, DeploymentJson>>(
  "@dicehall/core/generated/deployments.json",
  { eager: true, import: "default" },
);

const deployments = parseDeployments(Object.values(files)[0] ?? {});

export function deploymentFor(chainId: number | undefined): Deployment | undefined {
  return chainId === undefined ? undefined : deployments.get(chainId);
}

export function deployedChainIds(): number[] {
  return [...deployments.keys()];
}
