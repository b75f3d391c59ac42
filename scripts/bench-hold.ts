// What holding a roll refused for a whole call-off window costs the one who holds it, and what the
// hall's keeper spends asking again (issue 31, docs/PROTOCOL.md "What holding a roll costs").
//
// On our Entropy model (contracts/test/EntropyModel.sol), for maxNumHashes 10 and 100: a flooder
// keeps the provider's backlog full, the provider's keeper reveals what it can each block, and the
// hall's keeper (scripts/lib/hallKeeper.ts, driven a round a block) asks again at every block. The
// bench checks that a full backlog at every block is what it takes (one request fewer and the
// keeper's retry is answered), measures the gas of a flood request and of the keeper's refused
// retry (its occasional withdraw included), and prints what a call-off window of retries costs each
// side at a chain's fee, gas price and block time (FEE_WEI, GAS_PRICE_WEI, BLOCK_SECONDS: Base by
// default). `npm run bench:hold` prints the table; it fails if the keeper was not refused at every
// held block or was not answered once the backlog was one short.
import { network } from "hardhat";
import { zeroAddress, type Hash } from "viem";
import { deployEntropyModel, requestsIn, revealRequest } from "./lib/entropyModel.ts";
import { startHallKeeper } from "./lib/hallKeeper.ts";

/** Pyth's fee for one request on Base, as PROTOCOL.md's figures take it (wei). */
const FEE_WEI = BigInt(process.env.FEE_WEI ?? 21_000_000_000_000n);
/** Base's gas price (wei): 0.01 gwei. */
const GAS_PRICE_WEI = BigInt(process.env.GAS_PRICE_WEI ?? 10_000_000n);
const BLOCK_SECONDS = BigInt(process.env.BLOCK_SECONDS ?? 2n);
/** Blocks held in the bench for each maxNumHashes. */
const ROUNDS = 12;
const CALL_OFF_WINDOW = 24n * 3600n;

const { viem } = await network.create();
const publicClient = await viem.getPublicClient();
const wallets = await viem.getWalletClients();
const [owner, alice, bob] = wallets;
const keeperWallet = wallets[8];
const providerWallet = wallets[9];

const median = (xs: bigint[]) =>
  [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[xs.length >> 1];
const eth = (wei: bigint) => `${(Number(wei) / 1e18).toPrecision(3)} ETH`;
const sci = (wei: bigint) => Number(wei).toExponential(2).replace("e+", "·10^");

async function mined(hash: Promise<Hash>) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success") throw new Error(`${receipt.transactionHash} reverted`);
  return receipt;
}

let failed = false;
const rows = [];
for (const maxNumHashes of [10, 100]) {
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
    model.contract.write.setMaxNumHashes([maxNumHashes], { account: providerWallet.account }),
  );

  const flooder = await viem.deployContract("NullEntropyConsumer", [model.address]);
  const floodGas: bigint[] = [];
  async function flood(n: number) {
    let last = 0n;
    for (let i = 0; i < n; i++) {
      const receipt = await mined(flooder.write.request([100_000], { value: fee }));
      floodGas.push(receipt.gasUsed);
      last = requestsIn(model, receipt)[0].sequenceNumber;
    }
    return last;
  }

  // The holder floods, then the mover's roll is refused.
  let last = await flood(maxNumHashes);
  await mined(hall.write.roll([gameId, 0], { account: mover.account, value: fee }));
  if ((await hall.read.getGame([gameId])).pendingSequence !== 0n) throw new Error("not refused");

  const keeper = startHallKeeper({
    publicClient: publicClient as never,
    wallet: keeperWallet as never,
    hall: hall.address,
    fromBlock: 0n,
    pollIntervalMs: 0,
    payOutAfterSeconds: false,
  });
  // Each round is a block of a real chain: the provider's keeper reveals the backlog, the holder
  // sends a fresh flood, the hall's keeper asks again.
  for (let round = 1; round <= ROUNDS; round++) {
    await revealRequest(model, provider, last);
    last = await flood(maxNumHashes);
    await keeper.tick();
    if (keeper.stats.refused !== round || keeper.stats.retried !== 0) failed = true;
  }
  const keeperGas = keeper.stats.gasUsed;
  // One request short of a full backlog: the keeper's next look is answered.
  await revealRequest(model, provider, last);
  await flood(maxNumHashes - 1);
  await keeper.tick();
  const answered = keeper.stats.retried === 1;
  if (!answered) failed = true;
  await keeper.stop();

  const blocks =
    (CALL_OFF_WINDOW - BigInt(await hall.read.LAST_RETRY_BEFORE_CALL_OFF())) / BLOCK_SECONDS;
  const requestGas = median(floodGas);
  const attackerPerBlock = BigInt(maxNumHashes) * (FEE_WEI + requestGas * GAS_PRICE_WEI);
  const keeperGasPerBlock = keeperGas / BigInt(ROUNDS);
  const keeperPerBlock = keeperGasPerBlock * GAS_PRICE_WEI;
  rows.push({
    maxNumHashes,
    "requests a block to hold": maxNumHashes,
    "refused every block / answered one short": `${keeper.stats.refused === ROUNDS + 0 ? "yes" : "NO"} / ${answered ? "yes" : "NO"}`,
    "gas a flood request": Number(requestGas),
    "holder a block": sci(attackerPerBlock),
    "keeper gas a block": Number(keeperGasPerBlock),
    "keeper a block": sci(keeperPerBlock),
    "blocks asked in a window": Number(blocks),
    "holder a window": `${sci(attackerPerBlock * blocks)} (${eth(attackerPerBlock * blocks)})`,
    "keeper a window": `${sci(keeperPerBlock * blocks)} (${eth(keeperPerBlock * blocks)})`,
  });
}

console.log(
  `\nHolding a roll refused for a whole call-off window (24 h; no retry in its last hour), the hall's ` +
    `keeper asking at every block\n(fee ${sci(FEE_WEI)} wei a request, gas ${sci(GAS_PRICE_WEI)} wei, ` +
    `a block every ${BLOCK_SECONDS} s; on our Entropy model, ${ROUNDS} blocks held for each row)\n`,
);
console.table(rows);
console.log(
  "A provider that reveals a request only k blocks after it lets each flood count k blocks: the holder's\n" +
    "cost is then divided by k. The keeper's refused retries cost it gas only (their value is credited\n" +
    "back and withdrawn every ten). The holder gains no win: the game is called off, every bet back.\n",
);
if (failed) process.exitCode = 1;
