import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { erc20Abi, formatEther, parseEventLogs, type Address } from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { isRuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { isComplete, newSheet, totals, type Sheet } from "@dicehall/core/rules/sheet.ts";
import { clients } from "../scripts/lib/chain.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import { fillGames, type FillResult } from "../scripts/lib/fillGames.ts";
import { NATIVE, STATUS } from "../scripts/lib/table.ts";

// fillGames on a dev stack of its own (no keeper: the filler reveals its own dice). Every game it
// reports must be a real, finished game in the hall's log: full sheets whose sum is the total the
// hall paid on, the pot minus the fee credited to the winners, and the hall's balances moved by
// exactly the bets in and the withdrawals out.
//
// FILL_GAMES=200 measures instead of the default 6 games and prints games/s and gas/game.
const GAMES = Number(process.env.FILL_GAMES ?? 6);

describe("fillGames", { timeout: 10 * 60_000 }, () => {
  let stack: DevStack | undefined;

  before(async () => {
    stack = await startDevStack({
      rpcPort: 0,
      web: false,
      keeper: false,
      deploymentId: `devstack-fillgames-${process.pid}`,
      deploymentsFile: null,
    });
  });

  after(async () => {
    await stack?.stop();
  });

  it(`plays ${GAMES} whole games, one transaction each`, async () => {
    const s = stack!;
    const { publicClient, wallet } = clients(s.rpcUrl);
    const hall = { address: s.addresses.diceHall, abi: diceHallAbi } as const;
    const tokens: Address[] = [NATIVE, s.addresses.testToken];
    const hallBalance = (token: Address) =>
      token === NATIVE
        ? publicClient.getBalance({ address: hall.address })
        : publicClient.readContract({
            address: token,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [hall.address],
          });
    const treasury = (token: Address) =>
      publicClient.readContract({ ...hall, functionName: "treasury", args: [token] });
    const balancesBefore = await Promise.all(tokens.map(hallBalance));
    const treasuryBefore = await Promise.all(tokens.map(treasury));

    const progress: number[] = [];
    const result: FillResult = await fillGames({
      publicClient,
      wallet: wallet(s.accounts[0]),
      diceHall: s.addresses.diceHall,
      mockEntropy: s.addresses.mockEntropy,
      testToken: s.addresses.testToken,
      games: GAMES,
      inFlight: 4,
      onProgress: (p) => progress.push(p.games),
    });

    assert.equal(result.games, GAMES);
    assert.equal(result.transactions, GAMES);
    assert.equal(result.gameIds.length, GAMES);
    assert.equal(new Set(result.gameIds).size, GAMES, "every game has its own id");
    assert.equal(progress.at(-1), GAMES);
    assert.ok(result.lastBlock >= result.firstBlock + BigInt(GAMES - 1));

    // In slices of blocks: 200 games' logs are more than one HTTP answer may hold.
    const logs = [];
    for (let from = result.firstBlock; from <= result.lastBlock; from += 40n) {
      const to = from + 39n < result.lastBlock ? from + 39n : result.lastBlock;
      logs.push(
        ...(await publicClient.getLogs({ address: hall.address, fromBlock: from, toBlock: to })),
      );
    }
    const created = parseEventLogs({ abi: diceHallAbi, logs, eventName: "GameCreated" });
    const finished = parseEventLogs({ abi: diceHallAbi, logs, eventName: "GameFinished" });
    const scored = parseEventLogs({ abi: diceHallAbi, logs, eventName: "Scored" });
    const rolled = parseEventLogs({ abi: diceHallAbi, logs, eventName: "DiceRolled" });
    const requested = parseEventLogs({ abi: diceHallAbi, logs, eventName: "RollRequested" });
    const credited = parseEventLogs({ abi: diceHallAbi, logs, eventName: "Credited" });
    const withdrawn = parseEventLogs({ abi: diceHallAbi, logs, eventName: "Withdrawn" });
    assert.equal(finished.length, GAMES, "one GameFinished per game");
    assert.deepEqual(
      finished.map((e) => e.args.gameId),
      result.gameIds,
    );

    const ruleSets = new Set<number>();
    const seatCounts = new Set<number>();
    const betsIn = new Map<Address, bigint>(tokens.map((t) => [t, 0n]));
    const fees = new Map<Address, bigint>(tokens.map((t) => [t, 0n]));
    for (const end of finished) {
      const {
        gameId,
        token,
        ruleSet,
        players,
        totals: paidTotals,
        winners,
        payoutEach,
        houseFee,
      } = end.args;
      const game = await publicClient.readContract({
        ...hall,
        functionName: "getGame",
        args: [gameId!],
      });
      assert.equal(game.status, STATUS.Finished, `game ${gameId} is finished`);
      assert.deepEqual(game.players, players, `game ${gameId}: GameFinished lists the turn order`);
      const opened = created.find((e) => e.args.gameId === gameId)!;
      assert.ok(opened, `game ${gameId} was created in the fill`);
      ruleSets.add(ruleSet!);
      seatCounts.add(opened.args.seats!);

      // The sheets rebuilt from Scored, added up by the TS engine, give the totals the hall paid on.
      assert.ok(isRuleSetId(ruleSet!));
      const sheets = new Map<Address, Sheet>(players!.map((p) => [p, newSheet(ruleSet as 0)]));
      for (const e of scored.filter((x) => x.args.gameId === gameId)) {
        const sheet = sheets.get(e.args.player!)!;
        assert.equal(sheet.boxes[e.args.category!], null, `game ${gameId}: a box filled twice`);
        sheet.boxes[e.args.category!] = Number(e.args.points);
        if (e.args.bonus! > 0n) sheet.yahtzeeBonuses += 1;
      }
      players!.forEach((p, i) => {
        const sheet = sheets.get(p)!;
        assert.ok(isComplete(sheet), `game ${gameId}: ${p} filled every box`);
        assert.equal(paidTotals![i], BigInt(totals(sheet).total), `game ${gameId}: total of ${p}`);
      });
      const best = paidTotals!.reduce((a, b) => (b > a ? b : a));
      assert.deepEqual(
        winners,
        players!.filter((_, i) => paidTotals![i] === best),
        `game ${gameId}: the winners are the best totals`,
      );

      // The pot less the fee went to the winners, in that game's transaction.
      const pot = opened.args.bet! * BigInt(players!.length);
      assert.equal(houseFee, (pot * BigInt(game.houseFeeBps)) / 10_000n);
      const paid = credited
        .filter((c) => c.transactionHash === end.transactionHash)
        .reduce((sum, c) => {
          assert.ok(winners!.includes(c.args.account!), `only winners are credited at the end`);
          assert.equal(c.args.token, token);
          assert.ok(c.args.amount! >= payoutEach!);
          return sum + c.args.amount!;
        }, 0n);
      assert.equal(paid, pot - houseFee!, `game ${gameId}: pot - fee credited`);
      betsIn.set(token!, betsIn.get(token!)! + pot);
      fees.set(token!, fees.get(token!)! + houseFee!);
    }
    assert.ok(ruleSets.size >= 2, `several rule sets: ${[...ruleSets]}`);
    assert.ok(seatCounts.size >= 2, `several player counts: ${[...seatCounts]}`);

    // Re-rolls with keep masks happened, and the order draw's first dice went to the first player.
    assert.ok(rolled.some((e) => e.args.rollNumber! > 1));
    assert.ok(requested.some((e) => e.args.keepMask !== 0));
    const firstRolls = new Map<bigint, Address>();
    for (const e of rolled)
      if (!firstRolls.has(e.args.gameId!)) firstRolls.set(e.args.gameId!, e.args.player!);
    for (const end of finished)
      assert.equal(firstRolls.get(end.args.gameId!), end.args.players![0]);

    // Balances: bets in, withdrawals out; the fees sit in the treasury, the rest in credits.
    const balancesAfter = await Promise.all(tokens.map(hallBalance));
    const treasuryAfter = await Promise.all(tokens.map(treasury));
    tokens.forEach((token, i) => {
      const out = withdrawn
        .filter((w) => w.args.token === token)
        .reduce((sum, w) => sum + w.args.amount!, 0n);
      assert.equal(
        balancesAfter[i] - balancesBefore[i],
        betsIn.get(token)! - out,
        `hall balance of ${token}`,
      );
      assert.equal(treasuryAfter[i] - treasuryBefore[i], fees.get(token)!, `treasury of ${token}`);
    });

    if (process.env.FILL_GAMES !== undefined) {
      const rows: [string, string][] = [
        ["games", String(result.games)],
        ["transactions", String(result.transactions)],
        ["seconds", result.seconds.toFixed(1)],
        ["games/s", (result.games / result.seconds).toFixed(1)],
        ["gas/game", String(result.gasUsed / BigInt(result.games))],
        ["hall events/game", (logs.length / result.games).toFixed(1)],
        ["native bets", formatEther(betsIn.get(NATIVE)!)],
      ];
      console.log(rows.map(([k, v]) => `${k.padEnd(18)}${v.padStart(14)}`).join("\n"));
    }
  });

  it("names the game and the error when a game transaction reverts", async () => {
    const s = stack!;
    const { publicClient, wallet } = clients(s.rpcUrl);
    const common = {
      publicClient,
      diceHall: s.addresses.diceHall,
      mockEntropy: s.addresses.mockEntropy,
      games: 1,
      seats: 4,
    };
    const { filler } = await fillGames({ ...common, wallet: wallet(s.accounts[1]) });
    // Someone else's filler refuses to play.
    await assert.rejects(
      fillGames({ ...common, wallet: wallet(s.accounts[2]), filler }),
      (err: Error) => {
        assert.match(err.message, /game 1 of 1 reverted: NotOwner\(/);
        return true;
      },
    );
  });
});
