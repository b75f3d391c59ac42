import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { artifacts } from "hardhat";
import { parseEther, parseEventLogs, type Abi } from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { fetchRevelation } from "@dicehall/core/contract/revelations.ts";
import { clients, waitFor } from "../scripts/lib/chain.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import {
  NATIVE,
  getGame,
  joinGame,
  openGame,
  roll,
  table,
  waitForDice,
} from "../scripts/lib/table.ts";

// `npm run dev`'s default since issue 27: the stack on our Entropy model. The provider's keeper
// reveals with revealWithCallback, its revelations are served in Fortuna's shape, and the hall's
// keeper asks again for a refused roll and delivers a stalled one from the revelation service.
// Every wait is for a state; chain time is moved with evm_increaseTime where a keeper waits for it,
// and nobody mines: the chain's own blocks (one every 2 s, as on Base) carry the new time, as a real
// chain's do. A test that mined here would hide a chain that stands still between transactions.
const START_TIMEOUT_MS = 120_000;
const WAIT_MS = 60_000;

describe("the dev stack on the Entropy model", { timeout: 5 * 60_000 }, () => {
  let stack: DevStack | undefined;
  const scratch = mkdtempSync(join(tmpdir(), "dicehall-model-"));

  before(
    async () => {
      stack = await startDevStack({
        rpcPort: 0,
        web: false,
        entropy: "model",
        keeperDelayMs: 200,
        deploymentId: `devstack-model-${process.pid}`,
        deploymentsFile: join(scratch, "deployments.json"),
      });
    },
    { timeout: START_TIMEOUT_MS },
  );

  after(async () => {
    await stack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function newGame(s: DevStack) {
    const hall = table(s.rpcUrl, s.addresses.diceHall);
    const [alice, bob] = s.accounts.slice(1, 3);
    const bet = parseEther("0.01");
    const config = {
      token: NATIVE,
      bet,
      seats: 2,
      ruleSet: 0 as const,
      joinWindow: 3600,
      moveTimeout: 3600,
    };
    const gameId = await openGame(hall, alice, config);
    await joinGame(hall, bob, gameId, NATIVE, bet);
    return { hall, gameId, bob };
  }

  async function advance(s: DevStack, seconds: number) {
    const { publicClient } = clients(s.rpcUrl);
    const request = publicClient.request as (a: { method: string; params: unknown[] }) => unknown;
    await request({ method: "evm_increaseTime", params: [seconds] });
  }

  it("makes blocks on its own, with no transaction, as a real chain does", async () => {
    const s = stack!;
    assert.equal(s.blockIntervalMs, 2_000);
    const { publicClient } = clients(s.rpcUrl);
    const first = await publicClient.getBlock({ blockTag: "latest" });
    const next = await waitFor(
      "a block nobody sent a transaction for",
      async () => {
        const block = await publicClient.getBlock({ blockTag: "latest" });
        return block.number > first.number ? block : undefined;
      },
      { timeoutMs: WAIT_MS },
    );
    assert.equal(next.transactions.length, 0);
    assert.ok(next.timestamp >= first.timestamp);
  });

  it("deploys the model and serves the provider's revelations in Fortuna's shape", async () => {
    const s = stack!;
    assert.equal(s.entropy, "model");
    assert.equal(s.deployment.mockEntropy, undefined);
    assert.equal(s.deployment.revelations, s.revelations);
    assert.match(s.revelations!, /\/v1\/chains\/local$/);
    const { hall, gameId, bob } = await newGame(s);
    const { sequence, blockNumber } = await roll(hall, bob, gameId, 0);
    const dice = await waitForDice(hall, gameId, sequence, blockNumber, { timeoutMs: WAIT_MS });
    assert.equal(dice.rollNumber, 1);
    // The number delivered is the provider's revelation, served to anyone once requested.
    assert.match((await fetchRevelation(s.revelations!, sequence)) ?? "", /^0x[0-9a-f]{64}$/);
    assert.equal(await fetchRevelation(s.revelations!, sequence + 1000n), undefined);
  });

  it("a refused roll is asked again by the hall's keeper once the provider takes requests again", async () => {
    const s = stack!;
    const { hall, gameId, bob } = await newGame(s);
    const { abi } = await artifacts.readArtifact("EntropyModel");
    const provider = clients(s.rpcUrl).wallet(s.addresses.entropyProvider);
    const setFee = async (fee: bigint) => {
      const hash = await provider.writeContract({
        address: s.addresses.mockEntropy,
        abi: abi as Abi,
        functionName: "setProviderFee",
        args: [fee],
      });
      await hall.publicClient.waitForTransactionReceipt({ hash });
    };
    const fee = await hall.publicClient.readContract({
      address: hall.diceHall,
      abi: diceHallAbi,
      functionName: "gameRollFee",
      args: [gameId],
    });
    await setFee(10n ** 30n);
    // Above the game's cap: the roll is refused (its value credited back), nobody asks again.
    const hash = await clients(s.rpcUrl)
      .wallet(bob)
      .writeContract({
        address: hall.diceHall,
        abi: diceHallAbi,
        functionName: "roll",
        args: [gameId, 0],
        value: fee,
      });
    const receipt = await hall.publicClient.waitForTransactionReceipt({ hash });
    assert.equal(
      parseEventLogs({ abi: diceHallAbi, logs: receipt.logs, eventName: "RollRefused" }).length,
      1,
    );
    assert.equal((await getGame(hall, gameId)).pendingSequence, 0n);
    await setFee(fee / 2n);
    await advance(s, 120);
    // Nobody at the table asks again: the hall's keeper does, and the provider answers.
    await waitFor(
      "the retried roll's dice",
      async () => ((await getGame(hall, gameId)).orderDrawn ? true : undefined),
      { timeoutMs: WAIT_MS },
    );
    assert.ok(s.hallKeeper!.stats.retried >= 1);
  });

  it("a stalled request is delivered by the hall's keeper from the revelation service", async () => {
    const s = stack!;
    await s.keeper!.stop(); // the provider's keeper is down
    const { hall, gameId, bob } = await newGame(s);
    const { sequence, blockNumber } = await roll(hall, bob, gameId, 0);
    await advance(s, 31);
    const delivered = await waitForDice(hall, gameId, sequence, blockNumber, {
      timeoutMs: WAIT_MS,
    });
    assert.equal(delivered.rollNumber, 1);
    assert.ok(s.hallKeeper!.stats.delivered >= 1);
    const logs = await hall.publicClient.getLogs({
      address: hall.diceHall,
      fromBlock: blockNumber,
    });
    const rolled = parseEventLogs({ abi: diceHallAbi, logs, eventName: "DiceRolled" });
    assert.equal(rolled.at(-1)?.args.sequenceNumber, sequence);
  });
});
