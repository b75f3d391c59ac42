import { createRequire } from "node:module";
import { configVariable, defineConfig } from "hardhat/config";
import hardhatToolboxViem from "@nomicfoundation/hardhat-toolbox-viem";
import { diceHallTasks } from "./scripts/tasks/index.ts";

const require = createRequire(import.meta.url);

// The compiler comes from the `solc` npm package (pinned to this exact version in package.json):
// this project must build on machines that cannot download compilers.
const SOLC_VERSION = "0.8.28";

function remoteNetwork(chainId: number, name: string) {
  return {
    type: "http" as const,
    chainType: (chainId === 42161 || chainId === 421614 ? "generic" : "op") as "generic" | "op",
    chainId,
    url: configVariable(`${name}_RPC_URL`),
    accounts: [configVariable(`${name}_DEPLOYER_KEY`)],
  };
}

export default defineConfig({
  plugins: [hardhatToolboxViem],
  tasks: diceHallTasks,
  solidity: {
    version: SOLC_VERSION,
    path: require.resolve("solc/soljson.js"),
    settings: {
      // Pyth's MockEntropy only compiles through the IR pipeline.
      viaIR: true,
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
    },
    npmFilesToBuild: ["@pythnetwork/entropy-sdk-solidity/MockEntropy.sol"],
  },
  paths: {
    tests: { solidity: "./contracts", nodejs: "./test" },
  },
  test: {
    solidity: {
      fsPermissions: { readFile: ["./test/vectors/rules-vectors.json"] },
      fuzz: { runs: 256 },
      invariant: { runs: 64, depth: 64 },
    },
  },
  verify: { etherscan: { apiKey: configVariable("ETHERSCAN_API_KEY") } },
  networks: {
    localhost: { type: "http", chainType: "l1", url: "http://127.0.0.1:8545" },
    baseSepolia: remoteNetwork(84532, "BASE_SEPOLIA"),
    base: remoteNetwork(8453, "BASE"),
    arbitrumSepolia: remoteNetwork(421614, "ARBITRUM_SEPOLIA"),
    arbitrumOne: remoteNetwork(42161, "ARBITRUM_ONE"),
  },
});
