/**
 * npm run bench:solver [-- --rule-set N|all] [--no-browser]
 *
 * The coach's solver (core/coach), measured:
 *   1. in Node: the time to fill each rule set's table (wall and CPU: the machine is shared),
 *      a hint's time once the table is there, and the table as bytes (float32) raw, gzip and
 *      brotli, with the time to load it back;
 *   2. in Chromium (playwright-core, /usr/bin/chromium or CHROMIUM_PATH), in a Web Worker built
 *      from core/coach/worker.ts by Vite: the time to build each table there, to load a shipped
 *      gzip table (fetch, DecompressionStream, deserialise), to open it again from IndexedDB, a
 *      hint's round trip, and the main thread's long tasks (over 50 ms) meanwhile.
 * A benchmark, not a test: it prints a table and asserts nothing.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { build } from "vite";
import { type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { newSheet } from "@dicehall/core/rules/sheet.ts";
import { adviseBox, adviseKeep, coachTurnAction } from "@dicehall/core/coach/advise.ts";
import { recordGame, seededRandom } from "@dicehall/core/coach/simulate.ts";
import { deserialiseTable, serialiseTable } from "@dicehall/core/coach/serialise.ts";
import { buildTable, forEachState, type SolverTable } from "@dicehall/core/coach/solver.ts";
import { applyScore } from "@dicehall/core/rules/sheet.ts";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const which = arg("--rule-set") ?? "all";
const ruleSets: RuleSetId[] = which === "all" ? [0, 1, 2, 3] : [Number(which) as RuleSetId];
const browser = !process.argv.includes("--no-browser");

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

interface NodeRow {
  ruleSet: RuleSetId;
  start: number;
  states: number;
  solved: number;
  wall: number;
  cpu: number;
  hintP50: number;
  hintP99: number;
  hintMax: number;
  raw: number;
  gzip: number;
  brotli: number;
  gunzipLoad: number;
  f32: Uint8Array;
  gz: Uint8Array;
}

/** Hint times on sheets part way through coach-played games (a fresh state each time). */
function hintTimes(table: SolverTable): number[] {
  const random = seededRandom(3);
  const times: number[] = [];
  for (let game = 0; game < 8; game++) {
    const { turns } = recordGame(
      table.ruleSet,
      (sh, d, r) => coachTurnAction(table, sh, d, r),
      random,
    );
    let sheet = newSheet(table.ruleSet);
    for (const turn of turns) {
      const dice = [0, 0, 0, 0, 0].map(() => 1 + Math.floor(random() * 6));
      const started = performance.now();
      adviseKeep(table, sheet, dice, 1);
      adviseBox(table, sheet, dice);
      times.push(performance.now() - started);
      sheet = applyScore(sheet, turn.rolls.at(-1)!, turn.box!).sheet;
    }
  }
  return times.sort((a, b) => a - b);
}

function benchNode(ruleSet: RuleSetId): NodeRow {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const table = buildTable(ruleSet);
  const wall = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpu0);
  const cpu = (cpuUsed.user + cpuUsed.system) / 1000;
  let states = 0;
  let solved = 0;
  forEachState(table.model, (_i, _m, _u, _f, copyOf) => {
    states++;
    if (copyOf < 0) solved++;
  });
  const times = hintTimes(table);
  const f32 = serialiseTable(table, 4);
  const gz = gzipSync(f32, { level: 9 });
  const br = brotliCompressSync(f32, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
  const loadStarted = performance.now();
  const loaded = deserialiseTable(gunzipSync(gz));
  const gunzipLoad = performance.now() - loadStarted;
  if (Math.abs(loaded.startValue - table.startValue) > 1e-4) throw new Error("load mismatch");
  return {
    ruleSet,
    start: table.startValue,
    states,
    solved,
    wall,
    cpu,
    hintP50: times[Math.floor(times.length / 2)],
    hintP99: times[Math.floor(times.length * 0.99)],
    hintMax: times.at(-1)!,
    raw: f32.length,
    gzip: gz.length,
    brotli: br.length,
    gunzipLoad,
    f32,
    gz,
  };
}

interface BrowserRow {
  build: number;
  buildLongTasks: number;
  longestTask: number;
  shipped: number;
  stored: number;
  storeAfterBuild: number;
  firstHint: number;
  hint: number;
  hintMax: number;
}

/** The worker bundle (what the app's lazy coach chunk would hold), by Vite. */
async function workerBundle(): Promise<string> {
  const entry = fileURLToPath(new URL("../core/coach/worker.ts", import.meta.url));
  const out = await build({
    configFile: false,
    logLevel: "silent",
    build: {
      write: false,
      minify: true,
      lib: { entry, formats: ["es"], fileName: "coach-worker" },
    },
  });
  const output = (Array.isArray(out) ? out[0] : out) as {
    output: { type: string; code?: string }[];
  };
  return output.output.find((o) => o.type === "chunk")!.code!;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>coach bench</title><script>
window.longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
  .observe({ type: "longtask", buffered: true });
let nextId = 1;
window.ask = (worker, request, transfer = []) => new Promise((resolve, reject) => {
  const id = nextId++;
  const onMessage = (event) => {
    const reply = event.data;
    if (reply.id !== id || reply.type === "progress") return;
    worker.removeEventListener("message", onMessage);
    reply.type === "error" ? reject(new Error(reply.message)) : resolve(reply);
  };
  worker.addEventListener("message", onMessage);
  worker.postMessage({ ...request, id }, transfer);
});
window.newWorker = () => new Worker("/coach-worker.js", { type: "module" });
</script>`;

async function benchBrowser(rows: NodeRow[], bundle: string): Promise<Map<RuleSetId, BrowserRow>> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const files = new Map<string, { body: Uint8Array | string; type: string }>([
    ["/", { body: PAGE, type: "text/html" }],
    ["/coach-worker.js", { body: bundle, type: "text/javascript" }],
    ...rows.map((r): [string, { body: Uint8Array; type: string }] => [
      `/coach-${r.ruleSet}.bin.gz`,
      { body: r.gz, type: "application/octet-stream" },
    ]),
  ]);
  const server = createServer((req, res) => {
    const file = files.get(req.url ?? "");
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const b = await chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  const results = new Map<RuleSetId, BrowserRow>();
  try {
    const page = await b.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    for (const r of rows) {
      const row = await page.evaluate(async (ruleSet) => {
        const w = window as unknown as {
          ask: (
            worker: Worker,
            request: object,
            transfer?: Transferable[],
          ) => Promise<{ ms: number }>;
          newWorker: () => Worker;
          longTasks: number[];
        };
        const sheet = {
          ruleSet,
          boxes: Array(ruleSet === 1 ? 15 : ruleSet === 3 ? 16 : 13).fill(null),
          yahtzeeBonuses: 0,
        };
        // 1. Build in a worker (and store in IndexedDB), the main thread watched for long tasks.
        w.longTasks.length = 0;
        const builder = w.newWorker();
        let t = performance.now();
        await w.ask(builder, { type: "build", ruleSet });
        const build = performance.now() - t;
        const buildLongTasks = w.longTasks.length;
        const longestTask = Math.max(0, ...w.longTasks);
        t = performance.now();
        await w.ask(builder, { type: "open", ruleSet }); // in memory: stores nothing
        const bytes = (await w.ask(builder, { type: "serialise", ruleSet })) as unknown as {
          bytes: ArrayBuffer;
        };
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const rq = indexedDB.open("dicehall-coach", 1);
          rq.onupgradeneeded = () => rq.result.createObjectStore("tables");
          rq.onsuccess = () => resolve(rq.result);
          rq.onerror = () => reject(rq.error);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction("tables", "readwrite");
          tx.objectStore("tables").put(bytes.bytes, `v1-f32/${ruleSet}`);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
        const storeAfterBuild = performance.now() - t;
        // 2. Hints' round trips: the first after the build, then 20 on fresh positions (one box
        // filled each: a new state, so the turn is solved afresh).
        t = performance.now();
        await w.ask(builder, { type: "adviseKeep", sheet, dice: [1, 2, 3, 4, 6], rollsUsed: 1 });
        const firstHint = performance.now() - t;
        const hints: number[] = [];
        for (let i = 0; i < 20; i++) {
          const boxes = sheet.boxes.map((_, b) => (b === i % sheet.boxes.length ? 0 : null));
          const dice = [1, 2, 3, 4, 5].map((d) => 1 + ((d * (i + 3)) % 6));
          t = performance.now();
          await w.ask(builder, {
            type: "adviseKeep",
            sheet: { ...sheet, boxes },
            dice,
            rollsUsed: 1 + (i % 2),
          });
          await w.ask(builder, { type: "adviseBox", sheet: { ...sheet, boxes }, dice });
          hints.push(performance.now() - t);
        }
        hints.sort((a, b) => a - b);
        const hint = hints[10];
        const hintMax = hints[19];
        builder.terminate();
        // 3. A shipped gzip table: fetch, decompress, load in a fresh worker.
        const loader = w.newWorker();
        t = performance.now();
        const response = await fetch(`/coach-${ruleSet}.bin.gz`);
        const raw = await new Response(
          response.body!.pipeThrough(new DecompressionStream("gzip")),
        ).arrayBuffer();
        await w.ask(loader, { type: "load", bytes: raw }, [raw]);
        const shipped = performance.now() - t;
        loader.terminate();
        // 4. Opened again from IndexedDB in a fresh worker.
        const reopen = w.newWorker();
        t = performance.now();
        const opened = (await w.ask(reopen, { type: "open", ruleSet })) as unknown as {
          source: string;
        };
        const stored = performance.now() - t;
        reopen.terminate();
        if (opened.source !== "stored") throw new Error(`opened from ${opened.source}`);
        return {
          build,
          buildLongTasks,
          longestTask,
          shipped,
          stored,
          storeAfterBuild,
          firstHint,
          hint,
          hintMax,
        };
      }, r.ruleSet);
      results.set(r.ruleSet, row);
      console.error(`chromium: rule set ${r.ruleSet} done`);
    }
  } finally {
    await b.close();
    server.close();
  }
  return results;
}

console.log(
  `Coach solver benchmark: Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} at the start`,
);
const rows: NodeRow[] = [];
for (const rs of ruleSets) {
  rows.push(benchNode(rs));
  console.error(`node: rule set ${rs} done`);
}
let bundle = "";
let browserRows = new Map<RuleSetId, BrowserRow>();
if (browser && existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) {
  bundle = await workerBundle();
  browserRows = await benchBrowser(rows, bundle);
}

console.log("\nNode: filling the table, a hint, the table as bytes (float32)\n");
console.log(
  "| rule set | start value | states (solved) | build wall | build CPU | hint p50 / p99 / max | bytes raw | gzip | brotli | gunzip + load |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(
    `| ${r.ruleSet} | ${r.start.toFixed(4)} | ${r.states} (${r.solved}) | ${s(r.wall)} | ${s(r.cpu)} | ` +
      `${r.hintP50.toFixed(2)} / ${r.hintP99.toFixed(2)} / ${r.hintMax.toFixed(2)} ms | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} | ` +
      `${r.gunzipLoad.toFixed(0)} ms |`,
  );
}
if (browserRows.size > 0) {
  console.log(
    `\nChromium Web Worker (worker bundle ${kb(bundle.length)}, ${kb(gzipSync(bundle).length)} gzip)\n`,
  );
  console.log(
    "| rule set | build in worker | long tasks meanwhile (longest) | shipped gzip: fetch + inflate + load | reopen from IndexedDB | first hint | hint p50 / max |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const b = browserRows.get(r.ruleSet)!;
    console.log(
      `| ${r.ruleSet} | ${s(b.build)} | ${b.buildLongTasks} (${b.longestTask.toFixed(0)} ms) | ` +
        `${b.shipped.toFixed(0)} ms | ${b.stored.toFixed(0)} ms | ${b.firstHint.toFixed(1)} ms | ` +
        `${b.hint.toFixed(1)} / ${b.hintMax.toFixed(1)} ms |`,
    );
  }
}
console.log(
  `\nload average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
