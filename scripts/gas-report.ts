// Gas per action for a full two-player classic game on the in-process chain, on Pyth's MockEntropy,
// against the targets of the DiceHall issues. Beside it, a consumer that does nothing with its
// number gives the baseline, so "our share" (roll minus a bare request, callback minus a bare
// reveal) shows what DiceHall itself costs. `npm run gas` prints the table (medians per action) and
// fails if a target is missed.
import { network } from "hardhat";
import { zeroAddress, type Address, type Hash, type Hex, type TransactionReceipt } from "viem";

const { viem } = await network.create();
const publicClient = await viem.getPublicClient();
const wallets = await viem.getWalletClients();
const [owner, alice, bob, carol] = wallets;

type Samples = Map<string, bigint[]>;
type Hall = Awaited<ReturnType<typeof deployHall>>;

async function deployHall(entropy: Address) {
  const hall = await viem.deployContract("DiceHall", [entropy, owner.account.address]);
  await hall.write.setTokenConfig([zeroAddress, true, 1n, 10n ** 20n]);
  await hall.write.setHouseFee([250]);
  return hall;
}

async function measure(samples: Samples, label: string, hash: Promise<Hash>) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success") throw new Error(`${label} reverted`);
  samples.set(label, [...(samples.get(label) ?? []), receipt.gasUsed]);
  return receipt;
}

/** How Entropy answers a request (MockEntropy's mockReveal). */
interface Answerer {
  /** Sends the answer to the request made in `receipt` (by DiceHall or by the null consumer). */
  reveal(receipt: TransactionReceipt, nonce: number): Promise<Hash>;
}

const bet = 10n ** 16n;
const config = (seats: number) => ({
  token: zeroAddress,
  bet,
  seats,
  ruleSet: 0,
  joinWindow: 3600,
  moveTimeout: 3600,
  invitees: [] as `0x${string}`[],
});

/** A full two-player game with every transaction measured. */
async function playGame(samples: Samples, hall: Hall, answer: Answerer) {
  const m = (label: string, hash: Promise<Hash>) => measure(samples, label, hash);
  // A plain join needs a lobby with a seat left after it: a 3-seat lobby, joined once.
  await m("createGame", hall.write.createGame([config(3)], { value: bet, account: carol.account }));
  const lobby = await gameIdOfLast(hall);
  await m("joinGame", hall.write.joinGame([lobby], { value: bet, account: alice.account }));
  await m("createGame", hall.write.createGame([config(2)], { value: bet, account: alice.account }));
  const gameId = await gameIdOfLast(hall);
  await m(
    "joinGame (last seat)",
    hall.write.joinGame([gameId], { value: bet, account: bob.account }),
  );

  const byAddress = new Map([alice, bob].map((w) => [w.account.address.toLowerCase(), w]));
  let nonce = 0;
  // The first roll draws the turn order; the creator makes it.
  const fee = await hall.read.gameRollFee([gameId]);
  const firstRoll = await m(
    "roll",
    hall.write.roll([gameId, 0], { account: alice.account, value: fee }),
  );
  await m("entropy callback, first roll (draws order)", answer.reveal(firstRoll, nonce++));
  let rolledThisTurn = 1;
  for (;;) {
    const game = await hall.read.getGame([gameId]);
    if (game.status !== 2) break;
    const wallet = byAddress.get(game.players[game.currentSeat].toLowerCase())!;
    const sheet = await hall.read.getPlayer([gameId, wallet.account.address]);
    for (let r = rolledThisTurn; r < 3; r++) {
      const keepMask = r === 0 ? 0 : 0b00011;
      const receipt = await m(
        "roll",
        hall.write.roll([gameId, keepMask], { account: wallet.account, value: fee }),
      );
      await m("entropy callback (reveal tx)", answer.reveal(receipt, nonce++));
    }
    rolledThisTurn = 0;
    // The first open box the rules accept (the Joker rule may force one).
    const open = sheet.filled.flatMap((f, box) => (f ? [] : [box]));
    let box = -1;
    for (const b of open) {
      try {
        await publicClient.simulateContract({
          address: hall.address,
          abi: hall.abi,
          functionName: "score",
          args: [gameId, b],
          account: wallet.account,
        });
        box = b;
        break;
      } catch {}
    }
    const last = open.length === 1 && game.currentSeat === game.players.length - 1;
    await m(
      last ? "score (settles)" : "score",
      hall.write.score([gameId, box], { account: wallet.account }),
    );
  }
  await m(
    "withdraw",
    hall.write
      .withdraw([zeroAddress], { account: alice.account })
      .catch(() => hall.write.withdraw([zeroAddress], { account: bob.account })),
  );
  return gameId;
}

async function gameIdOfLast(hall: Hall): Promise<bigint> {
  const [created] = await publicClient.getContractEvents({
    address: hall.address,
    abi: hall.abi,
    eventName: "GameCreated",
    fromBlock: "latest",
    toBlock: "latest",
  });
  return created.args.gameId!;
}

/** Requests and reveals through a consumer that does nothing: Entropy's own cost. */
async function baseline(samples: Samples, consumer: Address, answer: Answerer, value: bigint) {
  const null_ = await viem.getContractAt("NullEntropyConsumer", consumer);
  for (let i = 0; i < 5; i++) {
    const receipt = await measure(
      samples,
      "baseline: request via null consumer",
      null_.write.request([100_000], { value }),
    );
    await measure(samples, "baseline: reveal to null consumer", answer.reveal(receipt, 1000 + i));
  }
}

const median = (xs: bigint[]) => {
  const s = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s[Math.floor((s.length - 1) / 2)];
};
const targets: Record<string, bigint> = {
  createGame: 250_000n,
  "joinGame (last seat)": 150_000n,
  roll: 110_000n,
  "entropy callback (reveal tx)": 60_000n,
  score: 50_000n,
  "score (settles)": 150_000n,
  "our share of a roll (roll - baseline request)": 25_000n,
  "our share of a callback (callback - baseline reveal)": 22_500n,
};
const gameActions = [
  "createGame",
  "joinGame (last seat)",
  "roll",
  "entropy callback, first roll (draws order)",
  "entropy callback (reveal tx)",
  "score",
  "score (settles)",
  "withdraw",
];

let missed = false;
function report(title: string, samples: Samples) {
  const med = (label: string) => median(samples.get(label)!);
  samples.set("our share of a roll (roll - baseline request)", [
    med("roll") - med("baseline: request via null consumer"),
  ]);
  samples.set("our share of a callback (callback - baseline reveal)", [
    med("entropy callback (reveal tx)") - med("baseline: reveal to null consumer"),
  ]);
  let perGame = 0n;
  for (const label of gameActions) {
    const xs = samples.get(label)!;
    // One 2-player game: one create, one last join, every roll/reveal/score it took, one withdraw.
    perGame += label === "createGame" ? xs[xs.length - 1] : xs.reduce((a, b) => a + b, 0n);
  }
  const rows = [...samples.entries()].map(([label, xs]) => {
    const m = median(xs);
    const t = targets[label];
    return {
      action: label,
      "median gas": Number(m),
      n: xs.length,
      target: t ? `<= ${Number(t)}` : "",
      ok: t ? (m <= t ? "yes" : "NO") : "",
    };
  });
  console.log(`\n${title}\n`);
  console.table(rows);
  console.log(`total for one full game (both players, every transaction): ${perGame} gas\n`);
  if (rows.some((r) => r.ok === "NO")) missed = true;
}

// ------------------------------------------------------------------------------ MockEntropy

{
  const samples: Samples = new Map();
  const entropy = await viem.deployContract("MockEntropy", [owner.account.address]);
  const hall = await deployHall(entropy.address);
  const consumer = await viem.deployContract("NullEntropyConsumer", [entropy.address]);
  const provider = await entropy.read.getDefaultProvider();
  const answer: Answerer = {
    async reveal(receipt, nonce) {
      // MockEntropy emits no request event of its own: the sequence is the one just handed out.
      void receipt;
      const seq = (await entropy.read.getProviderInfoV2([provider])).sequenceNumber - 1n;
      const random = `0x${nonce.toString(16).padStart(64, "0")}` as Hex;
      return entropy.write.mockReveal([provider, seq, random]);
    },
  };
  await playGame(samples, hall, answer);
  await baseline(samples, consumer.address, answer, 0n);
  report("DiceHall gas, two-player classic game, Pyth MockEntropy, in-process chain", samples);
}

if (missed) process.exitCode = 1;
