// Scenario 11: rough edges. Two players who press "Play now" meet at one table; a game number no
// uint256 can hold is no game at once, with its heading wrapped; the menu lights History on a
// replay; a player who holds less than the bet is told so beside a disabled Join, and every
// address shows a face that opens the full address.
import assert from "node:assert/strict";
import {
  createWalletClient,
  http,
  numberToHex,
  parseEther,
  parseEventLogs,
  parseGwei,
  zeroAddress,
} from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";

import { credits, gameView, openLobby, shortAddress, STATUS } from "../lib/chain.ts";
import { e2e, type Session, type Suite, type TrackedPage } from "../lib/harness.ts";
import { connectDevAccount, MOVE_TIMEOUT_MS } from "../lib/ui.ts";

/** Opens `path` as dev account #index, with `storage` in localStorage before the app starts. */
async function openWith(
  session: Session,
  label: string,
  index: number,
  path: string,
  storage: Record<string, string>,
): Promise<TrackedPage> {
  const tracked = await session.newPage(label);
  await tracked.context.addInitScript((items: Record<string, string>) => {
    for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  }, storage);
  await session.goto(tracked, path);
  await connectDevAccount(tracked.page, index, session.stack.accounts[index]);
  return tracked;
}

export function edgeScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "Play now: two players who press it meet at one table",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const [a, b] = [stack.accounts[6], stack.accounts[7]];
      // Both last played a 3-seat Yazty table at 0.0123 ETH: no other scenario opens that kind, so
      // neither is sent to someone else's table.
      const remembered = {
        "dicehall.tablePrefs.31337": JSON.stringify({
          token: zeroAddress,
          bet: parseEther("0.0123").toString(),
          seats: 3,
          ruleSet: 2,
        }),
      };
      const pa = await openWith(session, "A (account 6)", 6, "/games", remembered);
      await pa.page.getByText(/A seat at a 3-player Yazty table for 0\.0123 ETH/).waitFor();
      await pa.page.getByRole("button", { name: "Play now" }).click();
      await pa.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
      const gameId = BigInt(/\/games\/(\d+)/.exec(pa.page.url())![1]);
      await pa.page.getByRole("heading", { name: "Waiting for players" }).waitFor();

      const pb = await openWith(session, "B (account 7)", 7, "/games", remembered);
      // B's lobby knows the table (the hall's events reach every page within seconds).
      await pb.page
        .getByRole("list", { name: "Open tables" })
        .getByRole("listitem")
        .filter({ hasText: `#${gameId}` })
        .waitFor({ timeout: MOVE_TIMEOUT_MS });
      await pb.page.getByRole("button", { name: "Play now" }).click();
      await pb.page.waitForURL(new RegExp(`/games/${gameId}$`), { timeout: MOVE_TIMEOUT_MS });
      await pb.page.getByRole("heading", { name: "Waiting for players" }).waitFor();
      const view = await gameView(stack, gameId);
      assert.equal(view.status, STATUS.Open);
      assert.deepEqual([...view.players].sort(), [a, b].sort());
      assert.equal(view.config.ruleSet, 2);
      assert.equal(view.config.seats, 3);
    },
  );

  e2e(
    suite,
    "Play now: two players who press it in the same block still meet (the later one moves)",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const [player, rival] = [stack.accounts[2], stack.accounts[17]];
      const bet = parseEther("0.0234");
      // A 2-seat Yatzy table at 0.0234 ETH: no other scenario opens that kind.
      const kind = { token: zeroAddress, bet, seats: 2, ruleSet: 1 };
      const remembered = {
        "dicehall.tablePrefs.31337": JSON.stringify({ ...kind, bet: bet.toString() }),
      };
      const creditBefore = await credits(stack, zeroAddress, player);
      const p = await openWith(session, "player (account 2)", 2, "/games", remembered);
      await p.page.getByText(/A seat at a 2-player Yatzy table for 0\.0234 ETH/).waitFor();

      // The node stops mining, by transaction and by the clock alike: the player's table and the
      // rival's land in one block, so neither page could have seen the other's table when it chose
      // to open one. With only automine off, the chain's own 2 s block (issue 32) could mine the
      // player's table alone while a loaded machine still prepares the rival's.
      const rpc = stack.publicClient.request as unknown as (args: {
        method: string;
        params: unknown[];
      }) => Promise<unknown>;
      const nonce = (blockTag: "latest" | "pending") =>
        stack.publicClient.getTransactionCount({ address: player, blockTag });
      await rpc({ method: "evm_setAutomine", params: [false] });
      await rpc({ method: "evm_setIntervalMining", params: [0] });
      let rivalHash: `0x${string}`;
      try {
        const before = await nonce("latest");
        await p.page.getByRole("button", { name: "Play now" }).click();
        const deadline = Date.now() + MOVE_TIMEOUT_MS;
        while ((await nonce("pending")) === before) {
          if (Date.now() > deadline) throw new Error("the player's table was never sent");
          await new Promise((r) => setTimeout(r, 100));
        }
        // The rival pays a higher tip, so its table is first in the block: the older one.
        rivalHash = await createWalletClient({
          chain: stack.publicClient.chain,
          transport: http(stack.rpcUrl),
          account: rival,
        }).writeContract({
          address: stack.diceHall,
          abi: diceHallAbi,
          functionName: "createGame",
          args: [{ ...kind, joinWindow: 900, moveTimeout: 300, invitees: [] }],
          value: bet,
          maxPriorityFeePerGas: parseGwei("50"),
          maxFeePerGas: parseGwei("500"),
          gas: 400_000n,
        });
        await rpc({ method: "evm_mine", params: [] });
      } finally {
        await rpc({ method: "evm_setAutomine", params: [true] });
        await rpc({ method: "evm_setIntervalMining", params: [stack.chain.blockIntervalMs] });
      }
      const rivalReceipt = await stack.publicClient.waitForTransactionReceipt({ hash: rivalHash });
      const [rivalCreated] = parseEventLogs({
        abi: diceHallAbi,
        logs: rivalReceipt.logs,
        eventName: "GameCreated",
      });
      const older = rivalCreated.args.gameId;
      const mine = older + 1n;
      assert.equal((await gameView(stack, mine)).players[0], player, "the player's own table");

      // The player's page sees the older twin, leaves its own table and takes the seat there.
      await p.page.getByText(new RegExp(`same kind of table #${older}`)).waitFor({
        timeout: MOVE_TIMEOUT_MS,
      });
      await p.page.waitForURL(new RegExp(`/games/${older}$`), { timeout: MOVE_TIMEOUT_MS });
      const met = await gameView(stack, older);
      assert.equal(met.status, STATUS.Running, "the two met: the table filled and started");
      assert.deepEqual([...met.players].sort(), [player, rival].sort());
      assert.equal((await gameView(stack, mine)).status, STATUS.Cancelled);
      // The player's table opened a session (one confirmation a game): of what its transaction
      // sent beyond the bet, the key's gas went to the key and the roll fees were set aside for it
      // (session().feeAllowance, not the credit); anything over both went into the credit.
      const [mineCreated] = await stack.publicClient.getContractEvents({
        address: stack.diceHall,
        abi: diceHallAbi,
        eventName: "GameCreated",
        args: { gameId: mine },
        fromBlock: rivalReceipt.blockNumber,
      });
      const mineReceipt = await stack.publicClient.getTransactionReceipt({
        hash: mineCreated.transactionHash,
      });
      const mineTx = await stack.publicClient.getTransaction({ hash: mineCreated.transactionHash });
      const [opened] = parseEventLogs({
        abi: diceHallAbi,
        logs: mineReceipt.logs,
        eventName: "SessionOpened",
      });
      assert.ok(opened, "the player's table opened a session");
      const setAside = opened.args.feeAllowance ?? 0n;
      const surplus = mineTx.value - bet - (opened.args.keyGas ?? 0n) - setAside;
      assert.equal(
        await credits(stack, zeroAddress, player),
        creditBefore + bet + surplus,
        "the bet on the cancelled table is the player's credit, beside what the session's grant left over",
      );
      const granted = await stack.publicClient.readContract({
        address: stack.diceHall,
        abi: diceHallAbi,
        functionName: "session",
        args: [player],
      });
      assert.ok(granted.active, "the session opened with the cancelled table lives on");
      assert.ok(
        granted.feeAllowance > 0n && granted.feeAllowance <= setAside,
        "its roll fees stay set aside for the key, less any roll it has paid since",
      );
    },
  );

  e2e(
    suite,
    "a game number past uint256 is no game at once; long headings wrap; a replay lights History",
    { timeout: 120_000 },
    async (session) => {
      const page = (await session.newPage("visitor")).page;
      const started = Date.now();
      await page.goto(new URL(`/games/${"9".repeat(80)}`, session.stack.webUrl).toString());
      await page.getByText("There is no game with this number.").waitFor({ timeout: 5_000 });
      assert.ok(Date.now() - started < 5_000, "said at once, not after the reads time out");
      assert.equal(await page.getByText(/Hex size/).count(), 0);

      // The largest uint256 is a number the hall could hold: its heading wraps inside the page.
      const biggest = (2n ** 256n - 1n).toString();
      await page.goto(new URL(`/games/${biggest}`, session.stack.webUrl).toString());
      await page.getByRole("heading", { level: 1, name: new RegExp(biggest) }).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);

      await page.goto(new URL("/games/1/replay", session.stack.webUrl).toString());
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link", { name: "History" }).waitFor();
      assert.equal(
        await nav.getByRole("link", { name: "History" }).getAttribute("aria-current"),
        "page",
      );
      assert.equal(
        await nav.getByRole("link", { name: "Play" }).getAttribute("aria-current"),
        null,
      );
    },
  );

  e2e(
    suite,
    "Join is disabled beside the reason when the wallet holds less than the bet",
    { timeout: 180_000 },
    async (session) => {
      const { stack } = session;
      // The host is not in the account picker (only the first ten are): it plays through the chain.
      const [host, poor] = [stack.accounts[15], stack.accounts[9]];
      const gameId = await openLobby(stack, host, { bet: parseEther("0.05") });
      const setBalance = (wei: bigint) =>
        stack.publicClient.request({
          method: "hardhat_setBalance",
          params: [poor, numberToHex(wei)],
        } as never);
      const before = await stack.publicClient.getBalance({ address: poor });
      await setBalance(parseEther("0.01"));
      try {
        const p = await openWith(
          session,
          "short of the bet (account 9)",
          9,
          `/games/${gameId}`,
          {},
        );
        const join = p.page.getByRole("button", { name: /^Join for / });
        await join.waitFor();
        const reason = p.page.locator("#join-reason");
        await reason.getByText("You have 0.01 ETH; this table's bet is 0.05 ETH.").waitFor();
        assert.equal(await join.isDisabled(), true);
        assert.equal(await join.getAttribute("aria-describedby"), "join-reason");

        // The host's seat: a face beside the short address, and the full address one click away.
        const seats = p.page.getByRole("list", { name: "Seats" });
        await seats.locator(".identicon svg").first().waitFor();
        await seats.getByRole("button", { name: `Full address of ${shortAddress(host)}` }).click();
        await seats.getByText(host).waitFor();
      } finally {
        // The account plays on in other scenarios.
        await setBalance(before);
      }
    },
  );
}
