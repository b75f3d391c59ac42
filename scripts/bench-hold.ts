// What holding a roll refused for a whole call-off window costs the one who holds it, and what the
// hall's keeper spends asking again (issues 31 and 41, docs/PROTOCOL.md "What holding a roll costs").
//
// On our Entropy model (contracts/test/EntropyModel.sol), for each way to flood the provider:
// - with callbacks (`requestV2`, what DiceHall itself sends): the provider's keeper reveals each
//   request, which moves its commitment up, so the holder must fill the backlog again every block;
// - without callbacks (Entropy's older `request()`): nobody reveals those; the provider's keeper only
//   advances its commitment now and then (every ADVANCE_EVERY_BLOCKS blocks once the backlog is past
//   95 % of maxNumHashes, as Pyth's Fortuna does), so against a keeper that merely asks again a flood
//   holds for that long; the hall's keeper of issue 41 advances the commitment itself from the
//   provider's public revelations before it asks, which leaves the holder a full flood every block.
// Each round is a block of a real chain: the provider's keeper acts, the holder sends the fewest
// requests that keep the keeper's next retry refused (all in one block), the hall's keeper looks
// (scripts/lib/hallKeeper.ts, driven a round at a time, with the local revelation service). The
// bench checks the keeper was refused at every round and is answered when the holder sends one
// request fewer, measures the gas of a flood request and the keeper's gas, and prints what a window
// of that costs each side at a chain's fee, gas price and block time (FEE_WEI, GAS_PRICE_WEI,
// BLOCK_SECONDS: Base by default). `npm run bench:hold` prints the table and fails if a check fails.
import { network } from "hardhat";
import { keccak256, toHex, zeroAddress, type Hash } from "viem";
import {
  advanceTx,
  deployEntropyModel,
  requestsIn,
  revealRequest,
  revelationOnChain,
} from "./lib/entropyModel.ts";
import { startHallKeeper } from "./lib/hallKeeper.ts";
import { startRevelationServer } from "./lib/revelationServer.ts";

/** Pyth's fee for one request on Base, as PROTOCOL.md's figures take it (wei). */
const FEE_WEI = BigInt(process.env.FEE_WEI ?? 21_000_000_000_000n);
/** Base's gas price (wei): 0.01 gwei. */
const GAS_PRICE_WEI = BigInt(process.env.GAS_PRICE_WEI ?? 10_000_000n);
const BLOCK_SECONDS = BigInt(process.env.BLOCK_SECONDS ?? 2n);
/** How often the provider's keeper advances its commitment past requests nobody reveals (30 s). */
const ADVANCE_EVERY_BLOCKS = 15;
/** Blocks a revelation waits before the service serves it (Fortuna's reveal delay). */
const REVEAL_DELAY_BLOCKS = 1;
const CALL_OFF_WINDOW = 24n * 3600n;
/** Each flood request's gas limit: sent in one block, its estimate cannot see the requests before it. */
const FLOOD_GAS = 500_000n;

const connection = await network.create();
const { viem } = connection;
const publicClient = await viem.getPublicClient();
const wallets = await viem.getWalletClients();
const [owner, alice, bob] = wallets;
const holderWallet = wallets[7];
const keeperWallet = wallets[8];
const providerWallet = wallets[9];

const median = (xs: bigint[]) =>
  [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[xs.length >> 1];
const eth = (wei: bigint) => `${(Number(wei) / 1e18).toPrecision(3)} ETH`;
const sci = (wei: bigint) => Number(wei).toExponential(2).replace("e+", "·10^");
const automine = (on: boolean) =>
  connection.provider.request({ method: "evm_setAutomine", params: [on] });

async function mined(hash: Promise<Hash> | Hash) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success") throw new Error(`${receipt.transactionHash} reverted`);
  return receipt;
}

interface Case {
  path: "callback" | "no callback";
  /** Whether the hall's keeper advances the provider's commitment before it asks (issue 41). */
  advances: boolean;
  maxNumHashes: number;
  rounds: number;
}

const cases: Case[] = [
  { path: "callback", advances: true, maxNumHashes: 10, rounds: 15 },
  { path: "callback", advances: true, maxNumHashes: 100, rounds: 15 },
  { path: "no callback", advances: true, maxNumHashes: 10, rounds: 15 },
  { path: "no callback", advances: true, maxNumHashes: 100, rounds: 15 },
  { path: "no callback", advances: false, maxNumHashes: 10, rounds: 2 * ADVANCE_EVERY_BLOCKS },
  { path: "no callback", advances: false, maxNumHashes: 100, rounds: 2 * ADVANCE_EVERY_BLOCKS },
];

const only = process.env.BENCH_CASES?.split(",").map(Number);
let failed = false;
const rows = [];
for (const [i, c] of cases.entries()) {
  if (only && !only.includes(i)) continue;
  if (process.env.BENCH_VERBOSE)
    console.error(
      `bench:hold: ${c.path}, maxNumHashes ${c.maxNumHashes}, keeper ${c.advances ? "advancing" : "asking only"}…`,
    );
  const m = BigInt(c.maxNumHashes);
  const model = await deployEntropyModel(viem, providerWallet);
  const provider = providerWallet.account.address;
  const hall = await viem.deployContract("DiceHall", [model.address, owner.account.address]);
  await mined(hall.write.setTokenConfig([zeroAddress, true, 1n, 10n ** 20n]));
  const bet = 10n ** 16n;
  const cfg = {
    token: zeroAddress,
    bet,
    seats: 2,
    ruleSet: 0,
    joinWindow: 3600,
    moveTimeout: 3600,
    invitees: [] as `0x${string}`[],
  };
  await mined(hall.write.createGame([cfg], { account: alice.account, value: bet }));
  const gameId = (await hall.read.nextGameId()) - 1n;
  await mined(hall.write.joinGame([gameId], { account: bob.account, value: bet }));
  const fee = await hall.read.gameRollFee([gameId]);
  // The order draw, then the first player fills Chance: the second is to move.
  const draw = await mined(hall.write.roll([gameId, 0], { account: alice.account, value: fee }));
  await revealRequest(model, provider, requestsIn(model, draw)[0].sequenceNumber);
  const order = (await hall.read.getGame([gameId])).players;
  const [first, mover] = order.map((a) =>
    a.toLowerCase() === alice.account.address.toLowerCase() ? alice : bob,
  );
  await mined(hall.write.score([gameId, 12], { account: first.account }));
  await mined(
    model.contract.write.setMaxNumHashes([c.maxNumHashes], { account: providerWallet.account }),
  );

  const consumer = await viem.deployContract("NullEntropyConsumer", [model.address]);
  const olderFee = await model.contract.read.getFee([provider]);
  const floodGas: bigint[] = [];
  let floodRequests = 0n;
  let secrets = 0;
  let holderGasBesideRequests = 0n;
  /**
   * The holder's `n` requests, all in one block; returns the last one's sequence number. The provider
   * refuses the holder too once its backlog is full: a holder whose requests nobody reveals first
   * advances the commitment itself (the revelations are public), in the same block.
   */
  async function flood(n: bigint): Promise<bigint | undefined> {
    if (n <= 0n) return undefined;
    const info = await model.contract.read.getProviderInfoV2([provider]);
    const room = m - (info.sequenceNumber - 1n - info.currentCommitmentSequenceNumber);
    await automine(false);
    const hashes: Hash[] = [];
    let advance: Hash | undefined;
    try {
      if (room < n) {
        advance = await advanceTx(model, provider, info.sequenceNumber - 1n, {
          account: holderWallet.account,
          gas: FLOOD_GAS,
        });
      }
      for (let i = 0n; i < n; i++) {
        hashes.push(
          c.path === "callback"
            ? await consumer.write.request([100_000], {
                account: holderWallet.account,
                value: fee,
                gas: FLOOD_GAS,
              })
            : await model.contract.write.request(
                [provider, keccak256(toHex(`holder ${++secrets}`)), false],
                { account: holderWallet.account, value: olderFee, gas: FLOOD_GAS },
              ),
        );
      }
      await connection.networkHelpers.mine();
    } finally {
      await automine(true);
    }
    const receipts = await Promise.all(hashes.map((hash) => mined(hash)));
    if (new Set(receipts.map((r) => r.blockNumber)).size !== 1) throw new Error("flood split");
    for (const r of receipts) floodGas.push(r.gasUsed);
    if (advance !== undefined) holderGasBesideRequests += (await mined(advance)).gasUsed;
    floodRequests += n;
    return (await model.contract.read.getProviderInfoV2([provider])).sequenceNumber - 1n;
  }
  /**
   * The fewest requests that keep the keeper's next retry refused: its request must be more than
   * maxNumHashes past the best commitment it can reach, the provider's current one or, for a keeper
   * that advances, the latest request the revelation service serves (all before this block).
   */
  async function needed(): Promise<bigint> {
    const info = await model.contract.read.getProviderInfoV2([provider]);
    const reachable = c.advances ? info.sequenceNumber - 1n : info.currentCommitmentSequenceNumber;
    const k = m + reachable - info.sequenceNumber + 1n;
    return k > 0n ? k : 0n;
  }
  /** The provider's keeper: reveals a request with a callback; advances past those without. */
  async function providerKeeper(round: number, last: bigint | undefined) {
    if (c.path === "callback") {
      if (last !== undefined) await revealRequest(model, provider, last);
      return;
    }
    const info = await model.contract.read.getProviderInfoV2([provider]);
    const backlog = info.sequenceNumber - 1n - info.currentCommitmentSequenceNumber;
    if (round % ADVANCE_EVERY_BLOCKS === 0 && backlog * 100n >= m * 95n) {
      await mined(
        advanceTx(model, provider, info.sequenceNumber - 1n, { account: providerWallet.account }),
      );
    }
  }

  // The holder floods, then the mover's roll is refused.
  let last = await flood(await needed());
  floodRequests = 0n;
  holderGasBesideRequests = 0n;
  await mined(hall.write.roll([gameId, 0], { account: mover.account, value: fee }));
  if ((await hall.read.getGame([gameId])).pendingSequence !== 0n) throw new Error("not refused");

  const service = await startRevelationServer({
    publicClient: publicClient as never,
    entropy: model.address,
    provider,
    revelationOf: (seq) => revelationOnChain(model, provider, seq),
    revealDelayBlocks: REVEAL_DELAY_BLOCKS,
  });
  const keeper = startHallKeeper({
    publicClient: publicClient as never,
    wallet: keeperWallet as never,
    hall: hall.address,
    fromBlock: 0n,
    revelations: service.url,
    advance: c.advances,
    pollIntervalMs: 0,
    payOutAfterSeconds: false,
  });
  const gasBefore = keeper.stats.gasUsed;
  for (let round = 1; round <= c.rounds; round++) {
    await providerKeeper(round, last);
    last = (await flood(await needed())) ?? last;
    await keeper.tickRolls();
    if (process.env.BENCH_VERBOSE)
      console.error(
        `  round ${round}: ${JSON.stringify(keeper.stats, (_, v) => (typeof v === "bigint" ? String(v) : v))}`,
      );
    if (keeper.stats.refused !== round || keeper.stats.retried !== 0) failed = true;
  }
  const keeperGas = keeper.stats.gasUsed - gasBefore;
  const heldWith = floodRequests;
  const heldWithGas = holderGasBesideRequests;
  const requestsPerBlock = Number((Number(heldWith) / c.rounds).toFixed(2));
  // One request short of what holds it: the keeper's next look is answered (after one of the
  // provider's advances, where the holder of a flood without callbacks must top it up).
  await providerKeeper(ADVANCE_EVERY_BLOCKS, last);
  await flood((await needed()) - 1n);
  await keeper.tickRolls();
  const answered = keeper.stats.retried === 1;
  if (!answered) failed = true;
  await keeper.stop();
  await service.stop();

  const blocks =
    (CALL_OFF_WINDOW - BigInt(await hall.read.LAST_RETRY_BEFORE_CALL_OFF())) / BLOCK_SECONDS;
  const requestGas = median(floodGas);
  const rounds = BigInt(c.rounds);
  const holderPerBlock =
    (heldWith * (FEE_WEI + requestGas * GAS_PRICE_WEI) + heldWithGas * GAS_PRICE_WEI) / rounds;
  const keeperGasPerBlock = keeperGas / rounds;
  const keeperPerBlock = keeperGasPerBlock * GAS_PRICE_WEI;
  rows.push({
    "flood path": c.path,
    keeper: c.advances ? "advances, asks (41)" : "asks only (31)",
    maxNumHashes: c.maxNumHashes,
    "requests a block": requestsPerBlock,
    "gas a request": Number(requestGas),
    "holder's advances, gas a block": Number(heldWithGas / rounds),
    "holder a block": sci(holderPerBlock),
    "holder a window": `${sci(holderPerBlock * blocks)} (${eth(holderPerBlock * blocks)})`,
    "keeper gas a block": Number(keeperGasPerBlock),
    "keeper a window": `${sci(keeperPerBlock * blocks)} (${eth(keeperPerBlock * blocks)})`,
    "refused / one short answered": `${keeper.stats.refused === c.rounds ? "yes" : "NO"} / ${answered ? "yes" : "NO"}`,
  });
}

const blocks = Number((CALL_OFF_WINDOW - 3600n) / BLOCK_SECONDS);
console.log(
  `\nHolding a roll refused for a whole call-off window (24 h; no retry in its last hour: ${blocks} blocks), ` +
    `the hall's keeper asking at every block\n(fee ${sci(FEE_WEI)} wei a request, gas ${sci(GAS_PRICE_WEI)} wei, ` +
    `a block every ${BLOCK_SECONDS} s, revelations served ${REVEAL_DELAY_BLOCKS} block after a request, ` +
    `the provider advancing past unrevealed requests every ${ADVANCE_EVERY_BLOCKS} blocks once 95 % full; ` +
    `on our Entropy model)\n`,
);
console.table(rows);
console.log(
  "A provider that reveals a request only k blocks after it, or a revelation service that serves it k\n" +
    "blocks after, lets each flood count k blocks: the holder's cost is then divided by k. The keeper's\n" +
    "refused retries cost it gas only (their value is credited back and withdrawn every ten). The holder\n" +
    "gains no win: the game is called off, every bet back.\n",
);
if (failed) process.exitCode = 1;
