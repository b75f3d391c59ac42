import { describe, expect, it } from "vitest";
import { parseDeployments } from "./deployments.ts";

describe("parseDeployments", () => {
  it("reads the deploy script's output, block numbers as bigint", () => {
    const map = parseDeployments({
      "31337": {
        chainId: 31337,
        diceHall: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
        testToken: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
        entropy: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        deploymentBlock: 3,
      },
    });
    expect(map.get(31337)).toMatchObject({ chainId: 31337, deploymentBlock: 3n });
  });

  it("skips entries without a hall", () => {
    expect(parseDeployments({ "8453": { chainId: 8453 } as never }).size).toBe(0);
  });
});
