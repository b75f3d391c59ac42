// `npm run bench:dice`: how long after the DiceRolled block the dice settle on screen. Starts the
// browser tests' local system (web/e2e/lib/stack.ts: a fresh Hardhat node, the contracts, the
// entropy keeper and a production build of the app), opens a table between two dev accounts in
// Chromium, plays rolls on it and prints a table. Target: the dice settle within 1.5 s of the
// DiceRolled block (p90 over the rolls), on the roller's page and on the opponent's.
//
// Per roll, on each page:
//   t0     the DiceRolled block is mined: the node's newHeads notification over WebSocket, which
//          it pushes as it mines the block (before it even answers the transaction's sender);
//   tLog   the app's own RPC traffic first carries the DiceRolled log (a fetch wrapper in the page);
//   tShown the tray shows the new roll count ("Roll 2 of 3"): the app has read and rendered the
//          roll, and the dice are told to stop tumbling;
//   t1     every die shows its final face, equal to the dice in the DiceRolled event (a
//          MutationObserver in the page; the faces are in the dice buttons' aria-labels, "Die 3: 5").
// Page times are the page's Date.now(), the same wall clock as this process's.
//
// Flags: --rolls N (default 20), --keeper-delay MS (the keeper's reveal delay, default 1000 ms as
// in `npm run dev`), --verbose (the stack's log). Runs Chromium from CHROMIUM_PATH or
// /usr/bin/chromium. Exit code 1 when the target is missed.
import { parseArgs } from "node:util";
import { decodeEventLog, encodeEventTopics, type Address, type Hex } from "viem";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { STATUS, currentPlayer, eventually, gameView, turnKey } from "./lib/chain.ts";
import { Session, launchBrowser, type Suite, type TrackedPage } from "./lib/harness.ts";
import type { E2EStack } from "./lib/stack.ts";
import {
  MOVE_TIMEOUT_MS,
  chooseBox,
  connectDevAccount,
  diceGroup,
  legalBoxes,
  rollButton,
  waitForRollEnabled,
} from "./lib/ui.ts";
import { DEFAULT_REVEAL_DELAY_MS } from "../../scripts/lib/keeper.ts";

const TARGET_MS = 1500;
const BET = "0.01";
/** Dev accounts 1 and 2 play (the browser tests use the same two for their whole game). */
const PLAYERS = [1, 2] as const;

const { values } = parseArgs({
  options: {
    rolls: { type: "string", default: "20" },
    "keeper-delay": { type: "string", default: String(DEFAULT_REVEAL_DELAY_MS) },
    verbose: { type: "boolean", default: false },
  },
});
const rollCount = Number(values.rolls);
const keeperDelayMs = Number(values["keeper-delay"]);
if (!Number.isInteger(rollCount) || rollCount < 1) {
  console.error(`bench-dice: --rolls must be a whole number >= 1, not "${values.rolls}"`);
  process.exit(1);
}
if (!Number.isFinite(keeperDelayMs) || keeperDelayMs < 0) {
  console.error("bench-dice: --keeper-delay must be a number of milliseconds >= 0");
  process.exit(1);
}

const started = Date.now();
const say = (line: string) =>
  console.log(`[bench-dice +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);
const log = values.verbose ? say : () => {};

const DICE_ROLLED_TOPIC = encodeEventTopics({ abi: diceHallAbi, eventName: "DiceRolled" })[0];

// ------------------------------------------------------------------ the chain, as it happens

interface DiceRolled {
  /** When the bench learned of the log (the same notification burst as its block's head). */
  at: number;
  blockNumber: number;
  gameId: bigint;
  player: Address;
  rollNumber: number;
  dice: number[];
}

/**
 * newHeads and DiceRolled logs pushed by the node over WebSocket: when each block was mined, to
 * the millisecond, without polling the node the app is also talking to.
 */
async function watchChain(stack: E2EStack) {
  const minedAt = new Map<number, number>();
  const rolls: DiceRolled[] = [];
  const ws = new WebSocket(stack.rpcUrl.replace(/^http/, "ws"));
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error(`no WebSocket at ${ws.url}`)), {
      once: true,
    });
  });
  const kinds = new Map<string, "heads" | "logs">();
  const requests = new Map<number, "heads" | "logs">();
  ws.addEventListener("message", (message) => {
    const at = Date.now();
    const msg = JSON.parse(String(message.data)) as {
      id?: number;
      result?: string;
      error?: { message: string };
      params?: { subscription: string; result: Record<string, unknown> };
    };
    if (msg.id !== undefined) {
      if (msg.error) console.error(`bench-dice: eth_subscribe failed: ${msg.error.message}`);
      else kinds.set(msg.result!, requests.get(msg.id)!);
      return;
    }
    if (!msg.params) return;
    const { subscription, result } = msg.params;
    if (kinds.get(subscription) === "heads") {
      const number = Number(BigInt(result.number as string));
      if (!minedAt.has(number)) minedAt.set(number, at);
    } else if (kinds.get(subscription) === "logs") {
      const { args } = decodeEventLog({
        abi: diceHallAbi,
        eventName: "DiceRolled",
        topics: result.topics as [Hex, ...Hex[]],
        data: result.data as Hex,
      });
      rolls.push({
        at,
        blockNumber: Number(BigInt(result.blockNumber as string)),
        gameId: args.gameId,
        player: args.player,
        rollNumber: args.rollNumber,
        dice: [...args.dice],
      });
    }
  });
  const subscribe = (id: number, kind: "heads" | "logs", params: unknown[]) => {
    requests.set(id, kind);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method: "eth_subscribe", params }));
  };
  subscribe(1, "heads", ["newHeads"]);
  subscribe(2, "logs", ["logs", { address: stack.diceHall, topics: [DICE_ROLLED_TOPIC] }]);
  await eventually("the node to confirm both subscriptions", () =>
    kinds.size === 2 ? true : undefined,
  );
  return { minedAt, rolls, close: () => ws.close() };
}

// ------------------------------------------------------------------ the pages, as they render

interface TraySample {
  at: number;
  /** The five dice buttons' aria-labels: "Die 1: 4", "Die 2: rolling", "Die 3: 2, kept", … */
  labels: string[];
  /** The tray's screen-reader roll count, "Roll 1 of 3". */
  count: string;
}
interface LogSeen {
  at: number;
  method: string;
  blockNumber: number;
}

interface Watched {
  tracked: TrackedPage;
  account: Address;
  tray: TraySample[];
  logs: LogSeen[];
}

/**
 * Runs in the page before the app: a MutationObserver that reports the tray whenever its dice or
 * roll count change, and a fetch wrapper that reports each RPC answer carrying a DiceRolled log.
 */
function instrument({ topic }: { topic: string }) {
  const w = window as unknown as {
    __benchReport?: (json: string) => void;
    fetch: typeof fetch;
  };
  const report = (kind: string, data: object) =>
    w.__benchReport?.(JSON.stringify({ kind, ...data }));

  let last = "";
  const sample = () => {
    const group = document.querySelector('[role="group"][aria-label^="Dice"]');
    if (!group) return;
    const at = Date.now();
    const labels = Array.from(group.querySelectorAll("button")).map(
      (b) => b.getAttribute("aria-label") ?? "",
    );
    const spans = Array.from(group.closest("section")?.querySelectorAll("span") ?? []);
    const count =
      spans.map((s) => s.textContent ?? "").find((t) => /^Roll \d of \d$/.test(t)) ?? "";
    const key = JSON.stringify([labels, count]);
    if (key === last) return;
    last = key;
    report("tray", { at, labels, count });
  };
  new MutationObserver(sample).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });

  const original = w.fetch.bind(window);
  w.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await original(input, init);
    const body = typeof init?.body === "string" ? init.body : "";
    if (/eth_getFilterChanges|eth_getLogs/.test(body)) {
      void response
        .clone()
        .text()
        .then((text) => {
          if (!text.includes(topic)) return;
          const at = Date.now();
          type Call = { id: number; method: string };
          type Answer = { id: number; result?: { topics?: string[]; blockNumber?: string }[] };
          const calls = ([] as Call[]).concat(JSON.parse(body) as Call | Call[]);
          const answers = ([] as Answer[]).concat(JSON.parse(text) as Answer | Answer[]);
          for (const answer of answers) {
            const method = calls.find((c) => c.id === answer.id)?.method ?? "?";
            for (const l of Array.isArray(answer.result) ? answer.result : []) {
              if (l.topics?.[0] === topic && l.blockNumber) {
                report("log", { at, method, blockNumber: parseInt(l.blockNumber, 16) });
              }
            }
          }
        })
        .catch(() => {});
    }
    return response;
  };
}

async function openWatched(session: Session, index: number, path: string): Promise<Watched> {
  const tracked = await session.newPage(`account ${index}`);
  const watched: Watched = {
    tracked,
    account: session.stack.accounts[index],
    tray: [],
    logs: [],
  };
  await tracked.page.exposeFunction("__benchReport", (json: string) => {
    const report = JSON.parse(json) as { kind: string } & TraySample & LogSeen;
    if (report.kind === "tray") watched.tray.push(report);
    else watched.logs.push(report);
  });
  // As a string with a stand-in for `__name`: tsx (esbuild's keepNames) wraps named functions in
  // calls to a helper that exists only in this process, and the page would not find it.
  const arg = JSON.stringify({ topic: DICE_ROLLED_TOPIC });
  await tracked.page.addInitScript({
    content: `(() => { const __name = (f) => f; (${instrument.toString()})(${arg}); })();`,
  });
  await session.goto(tracked, path);
  await connectDevAccount(tracked.page, index, watched.account);
  return watched;
}

/** A public ETH table: the first page opens it, the second joins from its link. */
async function openTable(session: Session, [a, b]: Watched[]): Promise<bigint> {
  await session.goto(a.tracked, "/games/new");
  const { page } = a.tracked;
  await page.getByRole("radio", { name: "ETH (native)" }).check();
  await page.getByLabel(/^Bet per seat/).fill(BET);
  await page.getByRole("button", { name: "Open the table" }).click();
  await page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
  const gameId = BigInt(/\/games\/(\d+)/.exec(page.url())![1]);
  await session.goto(b.tracked, `/games/${gameId}`);
  await b.tracked.page.getByRole("button", { name: /^Join for / }).click();
  for (const p of [a, b]) {
    await p.tracked.page
      .getByRole("table", { name: "Score sheets" })
      .waitFor({ timeout: MOVE_TIMEOUT_MS });
  }
  return gameId;
}

// ------------------------------------------------------------------ one roll, measured

const faceOf = (label: string): number | null => {
  const match = /^Die \d: ([1-6])\b/.exec(label);
  return match ? Number(match[1]) : null;
};

interface PageTiming {
  /** t1 − t0: the number the target is about. */
  settleMs: number;
  /** tLog − t0 (null when the page never fetched the log itself). */
  seenMs: number | null;
  /** tShown − t0. */
  shownMs: number;
  /** Faces shown between the click and t1 that were neither the old nor the new value. */
  invented: number;
}

/** The page's timing of `roll`, once it shows the roll's dice settled (or throws after a while). */
async function timeOnPage(
  watched: Watched,
  roll: DiceRolled,
  t0: number,
  clickedAt: number,
): Promise<PageTiming> {
  const wantedCount = `Roll ${roll.rollNumber} of 3`;
  const settled = await eventually(
    `${watched.tracked.label} to show roll ${roll.rollNumber} settled on ${roll.dice.join(",")}`,
    () =>
      watched.tray.find(
        (s) =>
          s.at >= clickedAt &&
          s.count === wantedCount &&
          s.labels.length === 5 &&
          s.labels.every((label, i) => faceOf(label) === roll.dice[i]),
      ),
    MOVE_TIMEOUT_MS,
    20,
  );
  const shown = watched.tray.find((s) => s.at >= clickedAt && s.count === wantedCount)!;
  const seen = watched.logs.find((l) => l.blockNumber === roll.blockNumber);
  const before = watched.tray.filter((s) => s.at < clickedAt).at(-1);
  let invented = 0;
  for (const s of watched.tray.filter((s) => s.at >= clickedAt && s.at < settled.at)) {
    s.labels.forEach((label, i) => {
      const face = faceOf(label);
      if (face !== null && face !== roll.dice[i] && face !== faceOf(before?.labels[i] ?? "")) {
        invented++;
      }
    });
  }
  return {
    settleMs: settled.at - t0,
    seenMs: seen ? seen.at - t0 : null,
    shownMs: shown.at - t0,
    invented,
  };
}

// ------------------------------------------------------------------ statistics

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// ------------------------------------------------------------------ the run

let stack: E2EStack | undefined;
let suite: Suite | undefined;
let session: Session | undefined;
let chainWatch: Awaited<ReturnType<typeof watchChain>> | undefined;
let stopping: Promise<void> | undefined;
let interrupted = false;

/** Stops whatever was started, last first; safe to call more than once. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    chainWatch?.close();
    await session?.close().catch(() => {});
    await suite?.browser.close().catch(() => {});
    await stack?.stop().catch((err: unknown) => console.error(`while stopping: ${String(err)}`));
  })();
  return stopping;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    interrupted = true;
    say(`${signal}: stopping…`);
    void stopAll().then(() => process.exit(130));
  });
}

interface RollResult {
  roll: DiceRolled;
  roller: PageTiming;
  opponent: PageTiming;
}

async function main(): Promise<RollResult[]> {
  // The stack reads its keeper delay from the environment when it is first imported.
  process.env.E2E_KEEPER_DELAY_MS = String(keeperDelayMs);
  const { startE2EStack } = await import("./lib/stack.ts");
  say(`starting the local system (contracts, keeper with a ${keeperDelayMs} ms delay, web build)…`);
  stack = await startE2EStack(log);
  say(`stack up: web ${stack.webUrl} (${stack.webMode}), chain ${stack.rpcUrl}`);
  suite = { stack, browser: await launchBrowser(), log };
  session = new Session(suite, "bench-dice");
  chainWatch = await watchChain(stack);

  const pages: Watched[] = [];
  for (const index of PLAYERS) pages.push(await openWatched(session, index, "/games"));
  const pageOf = (player: Address) => pages.find((p) => p.account === player)!;

  const results: RollResult[] = [];
  let gameId = await openTable(session, pages);
  say(`game ${gameId} running between accounts ${PLAYERS.join(" and ")}; ${rollCount} rolls`);
  // Turns of 1, 2 and 3 rolls in turn: first rolls and re-rolls with kept dice alike.
  for (let turn = 0; results.length < rollCount; turn++) {
    if ((await gameView(stack, gameId)).status !== STATUS.Running) {
      gameId = await openTable(session, pages);
      say(`game ${gameId} running`);
    }
    const player = await currentPlayer(stack, gameId);
    if (!player) throw new Error(`game ${gameId} has no current player`);
    const roller = pageOf(player);
    const opponent = pages.find((p) => p !== roller)!;
    const { page } = roller.tracked;
    const rollsThisTurn = Math.min(1 + (turn % 3), rollCount - results.length);

    for (let n = 1; n <= rollsThisTurn; n++) {
      await waitForRollEnabled(page);
      if (n > 1) {
        // Keep die n−1 (and the ones kept before it) for the re-roll.
        const die = diceGroup(page)
          .getByRole("button")
          .nth(n - 2);
        await die.click();
        await eventually(`die ${n - 1} to show as kept`, async () =>
          (await die.getAttribute("aria-pressed")) === "true" ? true : undefined,
        );
      }
      const known = chainWatch.rolls.length;
      const clickedAt = Date.now();
      await rollButton(page).click();
      const roll = await eventually(
        `DiceRolled for roll ${n} of game ${gameId}`,
        () => chainWatch!.rolls.slice(known).find((r) => r.gameId === gameId),
        MOVE_TIMEOUT_MS,
        20,
      );
      if (roll.rollNumber !== n || roll.player !== player) {
        throw new Error(`expected roll ${n} of ${player}, the chain says roll ${roll.rollNumber}`);
      }
      const t0 = await eventually(`the head of block ${roll.blockNumber}`, () =>
        chainWatch!.minedAt.get(roll.blockNumber),
      );
      const result: RollResult = {
        roll,
        roller: await timeOnPage(roller, roll, t0, clickedAt),
        opponent: await timeOnPage(opponent, roll, t0, clickedAt),
      };
      results.push(result);
      const part = (t: PageTiming) =>
        `${String(t.settleMs).padStart(5)} ms (app saw it +${t.seenMs ?? "?"}, shown +${t.shownMs})`;
      say(
        `roll ${String(results.length).padStart(2)}/${rollCount}: game ${gameId} turn ` +
          `${turn + 1} roll ${n} [${roll.dice.join(" ")}]  ` +
          `roller ${part(result.roller)}  opponent ${part(result.opponent)}`,
      );
      if (results.length >= rollCount) break;
    }
    if (results.length >= rollCount) break;

    const before = await turnKey(stack, gameId);
    // A box worth 0 asks for a second press (the mis-click guard): chooseBox gives it.
    await chooseBox(page, legalBoxes(page).first());
    await eventually(
      "the turn to be scored on chain",
      async () => ((await turnKey(stack!, gameId)) !== before ? true : undefined),
      MOVE_TIMEOUT_MS,
    );
  }
  session.assertNoConsoleErrors();
  return results;
}

function report(results: RollResult[]): boolean {
  const rows: Record<string, string | number>[] = [];
  const pages = { "roller's page": "roller", "opponent's page": "opponent" } as const;
  let ok = true;
  for (const [name, key] of Object.entries(pages)) {
    const settle = results.map((r) => r[key].settleMs);
    const p90 = percentile(settle, 90);
    ok &&= p90 <= TARGET_MS;
    rows.push({
      page: name,
      rolls: settle.length,
      "median ms": median(settle),
      "p90 ms": p90,
      "max ms": Math.max(...settle),
      "over target": settle.filter((ms) => ms > TARGET_MS).length,
      "target ms": TARGET_MS,
      result: p90 <= TARGET_MS ? "OK" : "NOT OK",
    });
  }
  console.log(
    `\nDice settled on screen after the DiceRolled block (t1 − t0), ${results.length} rolls, ` +
      `keeper delay ${keeperDelayMs} ms:`,
  );
  console.table(rows);

  const parts: Record<string, string | number>[] = [];
  for (const [name, key] of Object.entries(pages)) {
    const timings = results.map((r) => r[key]);
    const seen = timings.flatMap((t) => (t.seenMs === null ? [] : [t.seenMs]));
    const fetched = timings.flatMap((t) => (t.seenMs === null ? [] : [t.shownMs - t.seenMs]));
    const settle = timings.map((t) => t.settleMs - t.shownMs);
    const cell = (xs: number[]) =>
      xs.length ? `${median(xs)} / ${percentile(xs, 90)} / ${Math.max(...xs)}` : "–";
    parts.push({
      page: name,
      "log reaches the app (tLog − t0)": cell(seen),
      "read + render (tShown − tLog)": cell(fetched),
      "tumble ends (t1 − tShown)": cell(settle),
    });
  }
  console.log("\nWhere the time goes, median / p90 / max ms:");
  console.table(parts);

  const invented = results.reduce((n, r) => n + r.roller.invented + r.opponent.invented, 0);
  console.log(
    `\nFaces shown during a roll that were neither the old nor the DiceRolled value: ${invented}.`,
  );
  ok &&= invented === 0;
  console.log(
    `${ok ? "OK" : "NOT OK"}: p90 of the dice settling after the DiceRolled block, target <= ${TARGET_MS} ms.`,
  );
  return ok;
}

let exitCode = 0;
try {
  const results = await main();
  if (!report(results)) exitCode = 1;
} catch (err) {
  if (interrupted) {
    exitCode = 130; // stopped on purpose: the pages closed under the run
  } else {
    console.error("bench-dice failed:", err);
    if (session) {
      const dir = await session.saveFailure(err).catch(() => "(could not save)");
      console.error(`failure artifacts: ${dir}`);
    }
    exitCode = 1;
  }
} finally {
  await stopAll();
}
say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
// Everything this run started is stopped above; a library's idle handle must not keep it alive.
process.exit(exitCode);
