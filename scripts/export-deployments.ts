// Writes core/generated/deployments.json (what the app reads) from every Ignition
// deployment under ignition/deployments/chain-*/: addresses, entropy and the deployment block.
import { relative } from "node:path";

import { DEPLOYMENTS_FILE, ROOT, collectDeployments, writeDeployments } from "./lib/deployments.ts";

const deployments = collectDeployments();
writeDeployments(deployments);
const chains = Object.values(deployments).map((d) => `${d.chainId} (DiceHall ${d.diceHall})`);
console.log(
  `export-deployments: wrote ${relative(ROOT, DEPLOYMENTS_FILE)}: ` +
    (chains.length > 0 ? chains.join(", ") : "no deployments found"),
);
