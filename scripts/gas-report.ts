// Gas per action for a full two-player classic game on the in-process chain, with Pyth's MockEntropy,
// against the targets of the DiceHall issue. `npm run gas` prints the table (medians per action).
import { network } from "hardhat";
import { encodeFunctionData, keccak256, toHex, zeroAddress, type Hash } from "viem";

const { viem } = await network.create();
const publicClient = await viem.getPublicClient();
const [owner, alice, bob, carol] = await viem.getWalletClients();

const entropy = await viem.deployContract("MockEntropy", [owner.account.address]);
const hall = await viem.deployContract("DiceHall", [entropy.address, owner.account.address]);
const baseline = await viem.deployContract("NullEntropyConsumer", [entropy.address]);
await hall.write.setTokenConfig([zeroAddress, true, 1n, 10n ** 20n]);
await hall.write.setHouseFee([250]);
const provider = await entropy.read.getDefaultProvider();

const samples = new Map<string, bigint[]>();
async function measure(label: string, hash: Promise<Hash>) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success") throw new Error(`${label} reverted`);
  samples.set(label, [...(samples.get(label) ?? []), receipt.gasUsed]);
  return receipt;
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

// A plain join needs a lobby with a seat left after it: a 3-seat lobby, joined once.
await measure(
  "createGame",
  hall.write.createGame([config(3)], { value: bet, account: carol.account }),
);
await measure("joinGame", hall.write.joinGame([1n], { value: bet, account: alice.account }));

await measure(
  "createGame",
  hall.write.createGame([config(2)], { value: bet, account: alice.account }),
);
const gameId = 2n;
await measure(
  "joinGame (starts)",
  hall.write.joinGame([gameId], { value: bet, account: bob.account }),
);

const players = new Map([alice, bob].map((w) => [w.account.address.toLowerCase(), w]));
let nonce = 0n;
for (;;) {
  const game = await hall.read.getGame([gameId]);
  if (game.status !== 2) break;
  const wallet = players.get(game.players[game.currentSeat].toLowerCase())!;
  const sheet = await hall.read.getPlayer([gameId, wallet.account.address]);
  for (let r = 0; r < 3; r++) {
    const keepMask = r === 0 ? 0 : 0b00011;
    const receipt = await measure(
      "roll",
      hall.write.roll([gameId, keepMask], { account: wallet.account }),
    );
    const [requested] = await publicClient.getContractEvents({
      address: hall.address,
      abi: hall.abi,
      eventName: "RollRequested",
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
    const random = keccak256(toHex(nonce++));
    await measure(
      "entropy callback (reveal tx)",
      entropy.write.mockReveal([provider, requested.args.sequenceNumber!, random]),
    );
  }
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
  await measure(
    last ? "score (settles)" : "score",
    hall.write.score([gameId, box], { account: wallet.account }),
  );
}
await measure(
  "withdraw",
  hall.write
    .withdraw([zeroAddress], { account: alice.account })
    .catch(() => hall.write.withdraw([zeroAddress], { account: bob.account })),
);

// The baseline: MockEntropy alone, through a consumer that does nothing.
for (let i = 0; i < 5; i++) {
  const receipt = await measure(
    "baseline: request via null consumer",
    baseline.write.request([100_000]),
  );
  const seq = (await entropy.read.getProviderInfoV2([provider])).sequenceNumber - 1n;
  void receipt;
  await measure(
    "baseline: reveal to null consumer",
    entropy.write.mockReveal([provider, seq, keccak256(toHex(i))]),
  );
}

const median = (xs: bigint[]) => {
  const s = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s[Math.floor((s.length - 1) / 2)];
};
const targets: Record<string, bigint> = {
  createGame: 250_000n,
  "joinGame (starts)": 150_000n,
  roll: 110_000n,
  "entropy callback (reveal tx)": 60_000n,
  score: 50_000n,
  "score (settles)": 150_000n,
};
const gameActions = [
  "createGame",
  "joinGame (starts)",
  "roll",
  "entropy callback (reveal tx)",
  "score",
  "score (settles)",
  "withdraw",
];
let perGame = 0n;
for (const label of gameActions) {
  const xs = samples.get(label)!;
  // One 2-player game: one create, one starting join, every roll/reveal/score it took, one withdraw.
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
console.log("\nDiceHall gas, two-player classic game, Pyth MockEntropy, in-process chain\n");
console.table(rows);
console.log(`total for one full game (both players, every transaction): ${perGame} gas\n`);
void encodeFunctionData;
if (rows.some((r) => r.ok === "NO")) process.exitCode = 1;
