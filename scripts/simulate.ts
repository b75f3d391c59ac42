// `npm run simulate -- --games N`: bots play N whole games through the real contract on the
// running local chain, across every rule set, 2-4 seats, the native coin and Test USD, with the TS
// engine's strategy. Every few games one player walks away and is timed out, so the history has
// forfeits. Needs `npm run dev` (or a node + deployment + keeper) running.
//
// The bots are their own accounts (keys derived from the test mnemonic at BOT_ACCOUNT_INDEX and
// up, funded here with hardhat_setBalance and minted Test USD), never the ten dev accounts the app
// offers, and the chain's clock is left alone: a walk-away is waited out in real time (the move
// clock of that game is the shortest the hall allows). Only --warp jumps the clock, which also
// closes lobbies and turns of people playing in the app at the time.
//
// Flags: --games N (default 8), --concurrency K (games at once, default min(N, 8)),
// --reveal (answer Entropy requests itself instead of waiting for the keeper: much faster),
// --timeout-every K (a forfeit in every K-th game, 0 = never; default 5), --warp, --rpc-url URL,
// --deployments FILE (default core/generated/deployments.json), -v.
import { parseArgs } from "node:util";
import { formatEther, formatUnits, numberToHex, parseEther, type Address } from "viem";
import { mnemonicToAccount } from "viem/accounts";

import { ruleSet as ruleSetInfo, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { totals } from "@dicehall/core/rules/sheet.ts";
import { chooseTurnAction } from "@dicehall/core/rules/strategy.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { errorLine, isUnreachable, shortAddress, sleep } from "./lib/chain.ts";
import { DEPLOYMENTS_FILE, loadDeployment } from "./lib/deployments.ts";
import {
  NATIVE,
  STATUS,
  addressOf,
  advanceTime,
  approveBets,
  claimTimeout,
  finished,
  getGame,
  getSeat,
  joinGame,
  mintTestToken,
  openGame,
  roll,
  score,
  table,
  waitForDice,
  type Table,
} from "./lib/table.ts";
import { testTokenAbi } from "@dicehall/core/generated/abis.ts";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "8" },
    concurrency: { type: "string" },
    reveal: { type: "boolean", default: false },
    "timeout-every": { type: "string", default: "5" },
    warp: { type: "boolean", default: false },
    deployments: { type: "string", default: DEPLOYMENTS_FILE },
    "rpc-url": { type: "string", default: process.env.RPC_URL ?? "http://127.0.0.1:8545" },
    verbose: { type: "boolean", short: "v", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(
    "usage: npm run simulate -- [--games N] [--concurrency K] [--reveal] [--timeout-every K] [--warp]\n" +
      "                           [--rpc-url URL] [--deployments FILE]",
  );
  process.exit(0);
}
const games = Number(values.games);
const concurrency = Number(values.concurrency ?? Math.min(games, 8));
const timeoutEvery = Number(values["timeout-every"]);
if (![games, concurrency].every((n) => Number.isInteger(n) && n > 0) || !(timeoutEvery >= 0)) {
  console.error(
    "simulate: --games and --concurrency must be positive integers, --timeout-every >= 0",
  );
  process.exit(1);
}
const rpcUrl = values["rpc-url"];

// ------------------------------------------------------------------ the chain and the hall

const probe = table(rpcUrl, NATIVE);
let chainId: number;
try {
  chainId = await probe.publicClient.getChainId();
} catch (err) {
  if (!isUnreachable(err)) throw err;
  console.error(`simulate: no node at ${rpcUrl}. Start the local stack first: npm run dev`);
  process.exit(1);
}
let deployment;
try {
  deployment = loadDeployment(chainId, values.deployments);
} catch (err) {
  console.error(`simulate: ${errorLine(err)}`);
  process.exit(1);
}
const code = await probe.publicClient.getCode({ address: deployment.diceHall });
if (code === undefined || code === "0x") {
  console.error(
    `simulate: no DiceHall at ${deployment.diceHall} on ${rpcUrl}; the deployments file is stale. ` +
      "Restart `npm run dev` (it deploys and exports again).",
  );
  process.exit(1);
}
if (values.reveal && deployment.mockEntropy === undefined) {
  console.error(
    "simulate: --reveal needs MockEntropy (`npm run dev -- --mock-entropy`); this chain's numbers " +
      "come from a provider's keeper (the local Entropy model or Pyth's): leave --reveal out",
  );
  process.exit(1);
}
const t: Table = table(rpcUrl, deployment.diceHall, deployment.mockEntropy);
if (values.warp) {
  console.warn(
    "simulate: --warp moves the chain's clock forward for every walk-away: lobbies and turns of " +
      "anyone playing in the app now can close, and their times will look like the future.",
  );
}

// The bots' own accounts: far past the node's unlocked ones (the app offers the first ten, the
// keeper sends from the last), so no bot game shows up as a player's. A game takes its seats from
// the free bots and gives them back at the end: no account is in two games at once, so the nonces
// viem reads before each send never race.
const BOT_ACCOUNT_INDEX = 1000;
const bots = Array.from({ length: Math.min(concurrency, games) * 4 }, (_, i) =>
  mnemonicToAccount("test test test test test test test test test test test junk", {
    addressIndex: BOT_ACCOUNT_INDEX + i,
  }),
);
const freeBots = [...bots];
const BOT_ETH = parseEther("1000");
const BOT_TUSD = 10_000n * 10n ** 6n;

const hall = { address: t.diceHall, abi: diceHallAbi } as const;

interface Coin {
  token: Address;
  symbol: string;
  decimals: number;
  bet: bigint;
}
const coins: Coin[] = [];
for (const [token, symbol, decimals, wanted] of [
  [NATIVE, "ETH", 18, 10n ** 16n],
  ...(deployment.testToken ? [[deployment.testToken, "TUSD", 6, 5_000_000n] as const] : []),
] as const) {
  const limits = await t.publicClient.readContract({
    ...hall,
    functionName: "tokenConfig",
    args: [token],
  });
  if (!limits.allowed) continue;
  const bet =
    wanted < limits.minBet ? limits.minBet : wanted > limits.maxBet ? limits.maxBet : wanted;
  coins.push({ token, symbol, decimals, bet });
}
if (coins.length === 0) {
  console.error(
    "simulate: DiceHall allows no token; allow one with `npx hardhat dicehall token ...`",
  );
  process.exit(1);
}
const [joinMin, joinMax] = await t.publicClient.readContract({
  ...hall,
  functionName: "joinWindowBounds",
});
const [moveMin, moveMax] = await t.publicClient.readContract({
  ...hall,
  functionName: "moveTimeoutBounds",
});
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
// Long windows so that --warp's clock jumps never close another game's lobby or turn.
const JOIN_WINDOW = clamp(24 * 3600, joinMin, joinMax);
const MOVE_TIMEOUT = clamp(24 * 3600, moveMin, moveMax);
// The walk-away is waited out in real time unless --warp.
const SHORT_MOVE_TIMEOUT = moveMin;

// Funding: ETH straight into the balance, Test USD minted by each bot for itself: no account the
// app offers pays a thing, not even gas.
for (const bot of bots) {
  const eth = await t.publicClient.getBalance({ address: bot.address });
  if (eth < BOT_ETH / 2n) {
    await t.publicClient.request({
      method: "hardhat_setBalance" as never,
      params: [bot.address, numberToHex(BOT_ETH)] as never,
    });
  }
  for (const coin of coins.filter((c) => c.token !== NATIVE)) {
    const held = await t.publicClient.readContract({
      address: coin.token,
      abi: testTokenAbi,
      functionName: "balanceOf",
      args: [bot.address],
    });
    if (held < BOT_TUSD / 2n) await mintTestToken(t, bot, coin.token, BOT_TUSD);
    await approveBets(t, bot, coin.token);
  }
}

/**
 * Whose move it is in a running game, from getGame alone: the one place that knows the turn rules
 * (the issue-10 start flow, where any seated player makes the first roll, changes only this).
 */
async function toMove(gameId: bigint) {
  const game = await getGame(t, gameId);
  if (game.status !== STATUS.Running) return undefined;
  // Until the first roll draws the turn order, players are in join order and seat 0 (the creator)
  // makes that roll; its dice go to whoever the draw puts first, which the next call reads.
  return {
    player: game.players[game.currentSeat],
    others: game.players.filter((_, seat) => seat !== game.currentSeat),
    round: game.round,
    /** When the mover is out of time (chain seconds); 0 while a roll is pending. */
    deadline: Number(game.deadline),
  };
}

/** Times out `absent` from `claimer`'s seat: by jumping the clock with --warp, else by waiting. */
async function walkAway(gameId: bigint, claimer: Address, deadline: number, moveTimeout: number) {
  const signer = bots.find((b) => b.address === claimer)!;
  if (values.warp) {
    await advanceTime(t, moveTimeout + 1);
    await claimTimeout(t, signer, gameId);
    return;
  }
  // The node stamps a block with the time it is mined: wait out the deadline on the wall clock,
  // then until a claim goes through (a busy node's clock may be a second or two off). The turn
  // began just now, so never longer than the move timeout, even on a chain warped ahead before.
  const untilDeadline = (deadline + 1) * 1000 - Date.now();
  await sleep(Math.min(Math.max(0, untilDeadline), (moveTimeout + 1) * 1000));
  for (let attempt = 0; ; attempt++) {
    try {
      await claimTimeout(t, signer, gameId);
      return;
    } catch (err) {
      if (isUnreachable(err) || attempt >= 10) throw err;
      await sleep(1000);
    }
  }
}

// ------------------------------------------------------------------ one game

interface Result {
  index: number;
  gameId: bigint;
  ruleSet: RuleSetId;
  seats: number;
  coin: Coin;
  order: readonly Address[];
  totals: readonly bigint[];
  winners: readonly Address[];
  payoutEach: bigint;
  forfeited: Address[];
  rolls: number;
  /** Players whose on-chain total the TS engine did not reproduce. */
  disagreements: number;
  revealWaitMs: number[];
  ms: number;
}

async function playGame(index: number): Promise<Result> {
  const started = Date.now();
  const ruleSet = (index % 4) as RuleSetId;
  const seats = 2 + ((index + Math.floor(index / 4)) % 3);
  const coin = coins[Math.floor(index / 2) % coins.length];
  const withTimeout = timeoutEvery > 0 && index % timeoutEvery === timeoutEvery - 1;
  const seated = freeBots.splice(0, seats);
  try {
    return await playSeated(index, ruleSet, seats, coin, withTimeout, seated, started);
  } finally {
    freeBots.push(...seated);
  }
}

async function playSeated(
  index: number,
  ruleSet: RuleSetId,
  seats: number,
  coin: Coin,
  withTimeout: boolean,
  seated: typeof bots,
  started: number,
): Promise<Result> {
  const bot = (address: Address) => seated.find((b) => b.address === address)!;
  const fromBlock = await t.publicClient.getBlockNumber();
  const gameId = await openGame(t, seated[0], {
    token: coin.token,
    bet: coin.bet,
    seats,
    ruleSet,
    joinWindow: JOIN_WINDOW,
    moveTimeout: withTimeout ? SHORT_MOVE_TIMEOUT : MOVE_TIMEOUT,
  });
  for (const p of seated.slice(1)) await joinGame(t, p, gameId, coin.token, coin.bet);

  let rolls = 0;
  const forfeited: Address[] = [];
  const revealWaitMs: number[] = [];
  // The walk-away: the player to move at the start of round 3, once.
  let walkAwayPending = withTimeout;
  for (;;) {
    const move = await toMove(gameId);
    if (move === undefined) break;
    const current = move.player;
    const seat = await getSeat(t, gameId, ruleSet, current);

    if (walkAwayPending && move.round === 3 && seat.rollsUsed === 0) {
      walkAwayPending = false;
      await walkAway(gameId, move.others[0], move.deadline, SHORT_MOVE_TIMEOUT);
      forfeited.push(current);
      continue;
    }

    const action = chooseTurnAction(seat.sheet, seat.dice, seat.rollsUsed);
    if (action.action === "roll") {
      const asked = Date.now();
      const { sequence, blockNumber } = await roll(t, bot(current), gameId, action.keepMask);
      await waitForDice(t, gameId, sequence, blockNumber, {
        reveal: values.reveal,
        onSlow: () =>
          console.log(
            `  game ${gameId}: no dice after 10 s; is the keeper running? (or pass --reveal)`,
          ),
      });
      revealWaitMs.push(Date.now() - asked);
      rolls++;
    } else {
      await score(t, bot(current), gameId, action.box);
    }
  }

  const end = await finished(t, gameId, fromBlock);
  if (end === undefined) throw new Error(`game ${gameId} ended without GameFinished`);
  let disagreements = 0;
  for (const [i, p] of end.players!.entries()) {
    const s = await getSeat(t, gameId, ruleSet, p);
    if (!s.forfeited && BigInt(totals(s.sheet).total) !== end.totals![i]) disagreements++;
  }
  return {
    index,
    gameId,
    ruleSet,
    seats,
    coin,
    order: end.players!,
    totals: end.totals!,
    winners: end.winners!,
    payoutEach: end.payoutEach!,
    forfeited,
    rolls,
    disagreements,
    revealWaitMs,
    ms: Date.now() - started,
  };
}

// ------------------------------------------------------------------ run and report

const amount = (coin: Coin, value: bigint) =>
  `${coin.decimals === 18 ? formatEther(value) : formatUnits(value, coin.decimals)} ${coin.symbol}`;

function line(r: Result): string {
  const name = ruleSetInfo(r.ruleSet).name.padEnd(8);
  const scores = r.order
    .map(
      (p, i) =>
        `${r.totals[i]}${r.winners.includes(p) ? "*" : ""}${r.forfeited.includes(p) ? " (forfeited)" : ""}`,
    )
    .join(" / ");
  const winner = r.winners.map(shortAddress).join(", ");
  return (
    `game ${String(r.gameId).padStart(3)}  ${name} ${r.seats} seats  bet ${amount(r.coin, r.coin.bet).padEnd(10)}` +
    `  winner ${winner} (+${amount(r.coin, r.payoutEach)})  totals ${scores}` +
    `  ${r.rolls} rolls  ${(r.ms / 1000).toFixed(1)} s`
  );
}

console.log(
  `simulate: ${games} games on ${rpcUrl} (DiceHall ${deployment.diceHall}), ${concurrency} at a time, ` +
    (values.reveal
      ? "revealing the dice itself"
      : "dice from the keeper (about a second a roll; --reveal is much faster)"),
);
const started = Date.now();
const results: Result[] = [];
const failures: string[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(concurrency, games) }, async () => {
    while (next < games) {
      const index = next++;
      try {
        const r = await playGame(index);
        results.push(r);
        console.log(`[${results.length + failures.length}/${games}] ${line(r)}`);
      } catch (err) {
        failures.push(`game #${index + 1}: ${errorLine(err)}`);
        console.log(
          `[${results.length + failures.length}/${games}] game #${index + 1} failed: ${errorLine(err)}`,
        );
        if (values.verbose) console.error(err);
        if (isUnreachable(err)) {
          console.error("simulate: lost the node; stopping");
          process.exit(1);
        }
      }
    }
  }),
);

const waits = results.flatMap((r) => r.revealWaitMs).sort((a, b) => a - b);
const allTotals = results.flatMap((r) => r.totals.map(Number)).filter((n) => n > 0);
const byRuleSet = [0, 1, 2, 3].map(
  (id) => `${ruleSetInfo(id).name} ${results.filter((r) => r.ruleSet === id).length}`,
);
const summary = [
  "",
  `Summary: ${results.length} of ${games} games finished in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  `  rule sets      ${byRuleSet.join(", ")}`,
  `  seats          ${[2, 3, 4].map((s) => `${s}: ${results.filter((r) => r.seats === s).length}`).join(", ")}`,
  `  coins          ${coins.map((c) => `${c.symbol} ${results.filter((r) => r.coin === c).length}`).join(", ")}`,
  `  forfeits       ${results.reduce((n, r) => n + r.forfeited.length, 0)}`,
  `  rolls          ${waits.length}` +
    (waits.length
      ? `, dice after ${waits[Math.floor(waits.length / 2)]} ms median, ${waits.at(-1)} ms worst`
      : ""),
  `  totals         ${allTotals.length ? `mean ${Math.round(allTotals.reduce((a, b) => a + b, 0) / allTotals.length)}, best ${Math.max(...allTotals)}` : "-"}`,
  `  engine agrees  ${results.every((r) => r.disagreements === 0) ? "yes: every total matches the TS engine" : `NO: ${results.reduce((n, r) => n + r.disagreements, 0)} totals differ`}`,
  ...failures.map((f) => `  failed         ${f}`),
];
console.log(summary.join("\n"));
process.exit(failures.length > 0 || results.some((r) => r.disagreements > 0) ? 1 : 0);
