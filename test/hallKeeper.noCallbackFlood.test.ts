import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, parseEventLogs, type Hash } from "viem";
import {
  addressOf,
  gameView,
  hallEvent,
  modelHallFixture,
  requestRoll,
  reveal,
  rollTx,
  send,
  startGame,
  type Hall,
} from "./helpers/hall.ts";
import {
  requestWithoutCallback,
  revealRequest,
  revelationOnChain,
} from "../scripts/lib/entropyModel.ts";
import { startHallKeeper } from "../scripts/lib/hallKeeper.ts";
import { startRevelationServer } from "../scripts/lib/revelationServer.ts";

/**
 * Issue 41, P-3: a roll held refused by a flood through Entropy's older `request()` (no callback).
 * Nobody reveals such requests, so the provider's keeper never moves its commitment past them; only
 * an advance of the commitment clears the backlog. The hall's keeper advances it from the provider's
 * public revelation and asks again right behind it, in the same block.
 */

const connection = await network.create();
const { networkHelpers } = connection;
const MAX_NUM_HASHES = 10;

async function fixture(): Promise<Hall> {
  return networkHelpers.loadFixture(modelHallFixture);
}

/** A running game whose order is drawn and whose second player is to move. */
async function drawnGame(h: Hall) {
  const { gameId } = await startGame(h, { players: [h.alice, h.bob] });
  const { sequenceNumber } = await requestRoll(h, gameId, h.alice, 0);
  await reveal(h, sequenceNumber, "0x");
  const players = (await gameView(h, gameId)).players;
  const byAddress = (a: string) => [h.alice, h.bob].find((w) => addressOf(w) === a)!;
  await send(h, h.hall.write.score([gameId, 12], { account: byAddress(players[0]).account }));
  return { gameId, mover: byAddress(players[1]) };
}

/** The stranger's flood: `n` requests without a callback, which nobody will ever reveal. */
async function floodWithoutCallbacks(h: Hall, n: number): Promise<bigint> {
  let last = 0n;
  for (let i = 0; i < n; i++) {
    last = (await requestWithoutCallback(h.model!, h.stranger, h.provider)).sequenceNumber;
  }
  return last;
}

async function keeperOn(h: Hall, o: { revealDelayBlocks?: number } = {}) {
  const service = await startRevelationServer({
    publicClient: h.publicClient as never,
    entropy: h.model!.address,
    provider: h.provider,
    revelationOf: (seq) => revelationOnChain(h.model!, h.provider, seq),
    revealDelayBlocks: o.revealDelayBlocks,
  });
  const keeper = startHallKeeper({
    publicClient: h.publicClient as never,
    wallet: h.wallets[8] as never,
    hall: h.hall.address,
    fromBlock: 0n,
    revelations: service.url,
    pollIntervalMs: 0,
    payOutAfterSeconds: false,
    log: process.env.KEEPER_LOG ? (line) => console.log(line) : undefined,
  });
  return {
    keeper,
    async stop() {
      await keeper.stop();
      await service.stop();
    },
  };
}

async function rpc(h: Hall, method: string, params: unknown[] = []) {
  return h.connection.provider.request({ method, params });
}

describe("the hall's keeper against a flood without callbacks (issue 41, P-3)", () => {
  it("advances the provider's commitment from its public revelation and asks again in the same block: the flood is answered within a block", async () => {
    const h = await fixture();
    const model = h.model!;
    await send(
      h,
      model.contract.write.setMaxNumHashes([MAX_NUM_HASHES], { account: h.wallets[9].account }),
    );
    const { gameId, mover } = await drawnGame(h);
    const last = await floodWithoutCallbacks(h, MAX_NUM_HASHES);
    hallEvent(h, await send(h, rollTx(h, gameId, mover, 0)), "RollRefused");
    // The provider's own keeper reveals requests with callbacks: there is none, so the backlog stays.
    const before = await model.contract.read.getProviderInfoV2([h.provider]);
    assert.equal(before.sequenceNumber - before.currentCommitmentSequenceNumber, 11n);

    const k = await keeperOn(h);
    const keeperAddress = getAddress(h.wallets[8].account.address);
    try {
      // Mined by hand, so that what the keeper sends for one look lands in one block.
      await rpc(h, "evm_setAutomine", [false]);
      const nonce = await h.publicClient.getTransactionCount({ address: keeperAddress });
      const look = k.keeper.tickRolls();
      for (let waited = 0; ; waited += 20) {
        const pending = await h.publicClient.getTransactionCount({
          address: keeperAddress,
          blockTag: "pending",
        });
        if (pending === nonce + 2) break;
        assert.ok(waited < 10_000, `the keeper sent ${pending - nonce} of its 2 transactions`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await networkHelpers.mine();
      await look;
      await rpc(h, "evm_setAutomine", [true]);

      assert.equal(k.keeper.stats.advanced, 1);
      assert.equal(k.keeper.stats.retried, 1);
      assert.equal(k.keeper.stats.refused, 0);
      const block = await h.publicClient.getBlock({ includeTransactions: true });
      const fromKeeper = block.transactions.filter((t) => getAddress(t.from) === keeperAddress);
      assert.deepEqual(
        fromKeeper.map((t) => getAddress(t.to!)),
        [getAddress(model.address), getAddress(h.hall.address)],
        "the advance, then the retry, in one block",
      );
      const receipts = await Promise.all(
        fromKeeper.map((t) => h.publicClient.getTransactionReceipt({ hash: t.hash as Hash })),
      );
      assert.ok(receipts.every((r) => r.status === "success"));
      const [requested] = parseEventLogs({
        abi: h.hall.abi,
        logs: receipts[1].logs,
        eventName: "RollRequested",
      });
      assert.equal(requested.args.gameId, gameId);
      // The commitment moved to the flood's last request, proved by the provider's revelation.
      const after = await model.contract.read.getProviderInfoV2([h.provider]);
      assert.equal(after.currentCommitmentSequenceNumber, last);
      assert.equal(after.currentCommitment, await revelationOnChain(model, h.provider, last));
      assert.ok(receipts[0].gasUsed < 60_000n, `the advance cost ${receipts[0].gasUsed} gas`);
      // The accepted request is answered as any other: the dice are the mover's.
      const game = await gameView(h, gameId);
      assert.equal(game.pendingSequence, requested.args.sequenceNumber);
      const rolled = hallEvent(
        h,
        await revealRequest(model, h.provider, game.pendingSequence),
        "DiceRolled",
      );
      assert.equal(rolled.player, addressOf(mover));
    } finally {
      await rpc(h, "evm_setAutomine", [true]);
      await k.stop();
    }
  });

  it("spends no advance that would not turn the refusal: a flood too fresh for the revelation service is asked again next block", async () => {
    const h = await fixture();
    const model = h.model!;
    await send(
      h,
      model.contract.write.setMaxNumHashes([MAX_NUM_HASHES], { account: h.wallets[9].account }),
    );
    const { gameId, mover } = await drawnGame(h);
    await floodWithoutCallbacks(h, MAX_NUM_HASHES);
    hallEvent(h, await send(h, rollTx(h, gameId, mover, 0)), "RollRefused");
    // The service holds every request back for 30 blocks: none of the flood's is served yet.
    const k = await keeperOn(h, { revealDelayBlocks: 30 });
    try {
      await k.keeper.tickRolls();
      assert.equal(k.keeper.stats.advanced, 0);
      assert.equal(k.keeper.stats.refused, 1);
      const info = await model.contract.read.getProviderInfoV2([h.provider]);
      assert.equal(info.sequenceNumber - info.currentCommitmentSequenceNumber, 11n);
      // Once the flood is old enough to be served, the next look turns it.
      await networkHelpers.mine(30);
      await k.keeper.tickRolls();
      assert.equal(k.keeper.stats.advanced, 1);
      assert.equal(k.keeper.stats.retried, 1);
      assert.notEqual((await gameView(h, gameId)).pendingSequence, 0n);
    } finally {
      await k.stop();
    }
  });
});
