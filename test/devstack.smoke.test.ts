import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseEther } from "viem";

import { IGNITION_DEPLOYMENTS_DIR, type Deployments } from "../scripts/lib/deployments.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import { isPortFree } from "../scripts/lib/ports.ts";
import {
  NATIVE,
  STATUS,
  getGame,
  getSeat,
  joinGame,
  openGame,
  roll,
  score,
  table,
  waitForDice,
} from "../scripts/lib/table.ts";

// `npm run dev` without the web app, on free ports, driven like a player would: a lobby, a second
// player, a roll answered by the stack's own keeper, a box. Then everything stops.
//
// Every wait is for a state (the node listening, a receipt, the DiceRolled event); the bounds are
// for a loaded 2-CPU machine, where the start (node and Ignition deployment) alone can take tens of
// seconds, and still end a real hang.
const START_TIMEOUT_MS = 120_000;
const DICE_TIMEOUT_MS = 60_000;

describe("the dev stack (without the web app)", { timeout: 4 * 60_000 }, () => {
  let stack: DevStack | undefined;
  const scratch = mkdtempSync(join(tmpdir(), "dicehall-smoke-"));
  const deploymentsFile = join(scratch, "deployments.json");
  const deploymentId = `devstack-smoke-${process.pid}`;

  before(
    async () => {
      stack = await startDevStack({
        rpcPort: 0,
        web: false,
        deploymentId,
        deploymentsFile,
      });
    },
    { timeout: START_TIMEOUT_MS },
  );

  after(async () => {
    await stack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("exports the deployment for the app", () => {
    const exported = JSON.parse(readFileSync(deploymentsFile, "utf8")) as Deployments;
    assert.deepEqual(exported["31337"], stack!.deployment);
    assert.equal(exported["31337"].diceHall, stack!.addresses.diceHall);
    assert.equal(exported["31337"].entropy, stack!.addresses.mockEntropy);
  });

  it("plays a lobby to its first roll, with dice from the keeper", async (t) => {
    const s = stack!;
    const hall = table(s.rpcUrl, s.addresses.diceHall);
    const [alice, bob] = s.accounts.slice(1, 3);
    const bet = parseEther("0.01");

    const gameId = await openGame(hall, alice, {
      token: NATIVE,
      bet,
      seats: 2,
      ruleSet: 0,
      joinWindow: 3600,
      moveTimeout: 3600,
    });
    assert.equal((await getGame(hall, gameId)).status, STATUS.Open);
    await joinGame(hall, bob, gameId, NATIVE, bet);

    const game = await getGame(hall, gameId);
    assert.equal(game.status, STATUS.Running);
    assert.equal(game.orderDrawn, false);

    // Bob, the last to join, makes the first roll: its number draws who goes first.
    const asked = Date.now();
    const { sequence, blockNumber } = await roll(hall, bob, gameId, 0);
    const dice = await waitForDice(hall, gameId, sequence, blockNumber, {
      timeoutMs: DICE_TIMEOUT_MS,
    });
    const latency = Date.now() - asked;
    t.diagnostic(
      `keeper latency, roll sent to DiceRolled seen: ${latency} ms (delay ${s.keeperDelayMs} ms)`,
    );

    const drawn = await getGame(hall, gameId);
    assert.equal(drawn.orderDrawn, true);
    const player = drawn.players[0];
    assert.equal(dice.player, player, "the dice are the first player's");
    assert.equal(dice.rollNumber, 1);
    assert.equal(dice.dice!.length, 5);
    for (const die of dice.dice!) assert.ok(die >= 1 && die <= 6, `die ${die}`);
    const seat = await getSeat(hall, gameId, 0, player);
    assert.equal(seat.rollsUsed, 1);
    assert.deepEqual(seat.dice, [...dice.dice!]);

    // Chance takes any dice; the turn passes to the other player.
    const receipt = await score(hall, player, gameId, 12);
    assert.ok(receipt.logs.length > 0);
    const after = await getGame(hall, gameId);
    assert.notEqual(after.players[after.currentSeat], player);
    assert.equal(s.keeper!.stats.revealed, 1);
  });

  it("keeps what the node refused, over HTTP, for a failing test to print", async () => {
    const s = stack!;
    const since = Date.now();
    const hall = table(s.rpcUrl, s.addresses.diceHall);
    const [alice] = s.accounts.slice(1, 2);
    await assert.rejects(score(hall, alice, 999_999n, 12));
    // A request the node cannot parse, sent as a plain HTTP client would.
    const response = await fetch(s.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: ["0x12"] }),
    });
    const body = (await response.json()) as { error?: { code: number } };
    assert.ok(body.error, "the node refused the bad address");

    const refused = s.nodeRefusals.since(since);
    const rejectedScore = refused.find((r) => /UnknownGame\(999999\)/.test(r.message));
    assert.ok(rejectedScore, `the refused score is kept: ${JSON.stringify(refused)}`);
    assert.equal(rejectedScore.code, 3, "a revert is code 3");
    const bad = refused.find((r) => r.method === "eth_getBalance");
    assert.ok(bad, "the malformed request is kept");
    assert.equal(bad.code, body.error.code);
    assert.match(bad.params, /0x12/);
    // Each refusal is kept once: the hook records the node's own connection only.
    assert.equal(refused.filter((r) => r.method === "eth_getBalance").length, 1);
  });

  it("stops everything: the port is free and the test deployment is gone", async () => {
    const port = Number(new URL(stack!.rpcUrl).port);
    await stack!.stop();
    stack = undefined;
    assert.ok(await isPortFree("127.0.0.1", port), `port ${port} is free again`);
    assert.ok(!existsSync(join(IGNITION_DEPLOYMENTS_DIR, deploymentId)));
  });
});
