import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { indexerSettings, IndexerSettingsError } from "../indexer/src/settings.ts";

// The indexer's settings from the environment: what npm run dev passes, what an operator sets,
// and a line that says which setting is wrong.

const HALL = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";
const deployments = JSON.stringify({
  "31337": { chainId: 31337, diceHall: HALL, deploymentBlock: 3 },
  "84532": { chainId: 84532, diceHall: HALL, deploymentBlock: "21000000" },
});
const readDeployments = () => deployments;
const noFile = () => {
  throw new Error("ENOENT");
};

describe("indexer settings", () => {
  it("defaults to the local chain, its deployment, PGlite and fast polling", () => {
    const s = indexerSettings({}, readDeployments);
    assert.equal(s.chainId, 31337);
    assert.equal(s.chainName, "local");
    assert.equal(s.rpcUrl, "http://127.0.0.1:8545");
    assert.equal(s.hall, "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0");
    assert.equal(s.startBlock, 3);
    assert.equal(s.databaseUrl, undefined);
    assert.equal(s.pollingMs, 250);
    assert.equal(s.logRange, 100);
  });

  it("reads a public chain's deployment and Postgres for production", () => {
    const s = indexerSettings(
      {
        INDEXER_CHAIN_ID: "84532",
        INDEXER_RPC_URL: "https://rpc.example",
        DATABASE_URL: "postgres://x@db/dicehall",
      },
      readDeployments,
    );
    assert.equal(s.chainName, "baseSepolia");
    assert.equal(s.startBlock, 21_000_000);
    assert.equal(s.databaseUrl, "postgres://x@db/dicehall");
    assert.equal(s.pollingMs, 1_000);
    assert.equal(s.logRange, undefined);
  });

  it("takes an explicit DiceHall without a deployments file", () => {
    const s = indexerSettings(
      { DICEHALL_ADDRESS: HALL, DICEHALL_START_BLOCK: "77", INDEXER_LOG_RANGE: "2000" },
      noFile,
    );
    assert.equal(s.startBlock, 77);
    assert.equal(s.logRange, 2000);
  });

  for (const [env, read, reason] of [
    [{ INDEXER_CHAIN_ID: "8453" }, readDeployments, /set INDEXER_RPC_URL/],
    [
      { INDEXER_CHAIN_ID: "8453", INDEXER_RPC_URL: "https://x" },
      readDeployments,
      /no DiceHall on chain 8453/,
    ],
    [{}, noFile, /no DICEHALL_ADDRESS and no deployments file/],
    [{ DICEHALL_ADDRESS: "0x12", DICEHALL_START_BLOCK: "1" }, noFile, /not an address/],
    [{ DICEHALL_ADDRESS: HALL }, noFile, /set DICEHALL_START_BLOCK/],
    [{ INDEXER_CHAIN_ID: "base" }, readDeployments, /INDEXER_CHAIN_ID must be a whole number/],
    [{ INDEXER_POLLING_MS: "-5" }, readDeployments, /INDEXER_POLLING_MS must be a whole number/],
  ] as const) {
    it(`refuses ${JSON.stringify(env)} with a reason`, () => {
      assert.throws(
        () => indexerSettings(env as Record<string, string>, read),
        (err: unknown) => err instanceof IndexerSettingsError && reason.test(err.message),
      );
    });
  }
});
