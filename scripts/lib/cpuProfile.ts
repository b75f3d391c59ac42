// A Lighthouse trace's main-thread tasks, with V8's profile samples in each: what
// `npm run bench:lighthouse -- --profile` prints, to see which of a page's tasks are long (over
// 50 ms as Lighthouse counts them: the part over 50 ms is its total blocking time) and what each
// one spends it on.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TraceMap, originalPositionFor } from "@jridgewell/trace-mapping";

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface Task {
  /** Milliseconds from the profile's start. */
  start: number;
  duration: number;
  /** Time with callees per function, the busiest first. */
  functions: [string, number][];
}

/** Names a frame: "name file:line:column" (or whatever `name` maps it to: its source's place). */
export type FrameName = (frame: CallFrame) => string;

const plainName: FrameName = (f) =>
  `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`;

/**
 * Names frames by the build's source maps (a build made with `sourcemap: true`): the function's
 * name and its source file and line, where the chunk's minified names say nothing.
 */
export function sourceMapNames(assetsDir: string): FrameName {
  const maps = new Map<string, TraceMap | null>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      try {
        maps.set(file, new TraceMap(readFileSync(join(assetsDir, `${file}.map`), "utf8")));
      } catch {
        maps.set(file, null);
      }
    }
    return maps.get(file)!;
  };
  return (f) => {
    const file = f.url.split("/").pop() ?? "";
    const map = mapOf(file);
    // The profile's lines and columns count from 0; trace-mapping's lines count from 1.
    const pos = map && originalPositionFor(map, { line: f.lineNumber + 1, column: f.columnNumber });
    if (!pos?.source) return plainName(f);
    const source = pos.source.replace(/^(\.\.\/)+/, "").replace(/^node_modules\//, "~");
    return `${pos.name ?? f.functionName ?? "(anonymous)"} ${source}:${pos.line}`;
  };
}

/** The long tasks (over `over` ms), each with its `top` busiest functions, as lines to print. */
export function describeLongTasks(
  tasks: Task[],
  over = 50,
  top = 12,
  skip = /(react-dom|scheduler)\/cjs\//,
): string[] {
  const lines: string[] = [];
  const long = tasks.filter((t) => t.duration > over);
  const blocking = long.reduce((sum, t) => sum + t.duration - over, 0);
  lines.push(
    `${long.length} tasks over ${over} ms, ${Math.round(blocking)} ms over ${over} ms in all (the blocking time)`,
  );
  for (const t of long) {
    lines.push(`task at ${Math.round(t.start)} ms, ${Math.round(t.duration)} ms:`);
    // React's and its scheduler's own frames are on every stack of a render: the app's
    // components and the libraries they call say more.
    const shown = t.functions.filter(([fn]) => !skip.test(fn)).slice(0, top);
    for (const [fn, ms] of shown) lines.push(`  ${ms.toFixed(0).padStart(5)} ms  ${fn}`);
  }
  return lines;
}

/** A Chromium trace's event, as Lighthouse returns its trace (the fields read here). */
export interface TraceEvent {
  name: string;
  ph?: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: {
        nodes?: { id: number; parent?: number; callFrame: CallFrame }[];
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
}

/**
 * The long tasks of a page's main thread in a trace recorded with V8's sampling profiler on (the
 * category "disabled-by-default-v8.cpu_profiler", which Lighthouse records when asked), each with
 * the functions its samples were in: the very tasks Lighthouse's blocking time is made of. `over`
 * is in the trace's own milliseconds (Lighthouse multiplies them by its CPU slowdown).
 */
export function tasksOfTrace(
  events: TraceEvent[],
  over: number,
  name: FrameName = plainName,
): Task[] {
  const threads = new Map<string, string>();
  for (const e of events)
    if (e.name === "thread_name" && e.args?.name) threads.set(`${e.pid}:${e.tid}`, e.args.name);
  // The page's main thread: the renderer main thread with the most tasks.
  const counts = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name === "RunTask" && threads.get(key) === "CrRendererMain")
      counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return [];
  const onMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
  const start = Math.min(
    ...events.filter((e) => onMain(e) && e.name === "navigationStart").map((e) => e.ts),
  );

  // The profile's samples on the main thread, each with its time, node and length. The thread's
  // "Profile" event names the profile; its chunks come from the profiler's own thread.
  const pid = Number(main.split(":")[0]);
  const ids = new Set(
    events.filter((e) => onMain(e) && e.name === "Profile" && e.id).map((e) => e.id!),
  );
  const frames = new Map<number, CallFrame>();
  const parents = new Map<number, number>();
  const samples: { ts: number; node: number; ms: number }[] = [];
  const clocks = new Map<string, number>();
  for (const e of events) {
    if (e.pid !== pid || !e.id || !ids.has(e.id)) continue;
    const data = e.args?.data;
    if (e.name === "Profile") clocks.set(e.id, data?.startTime ?? e.ts);
    if (e.name !== "ProfileChunk" || !data) continue;
    for (const n of data.cpuProfile?.nodes ?? []) {
      frames.set(n.id, n.callFrame);
      if (n.parent !== undefined) parents.set(n.id, n.parent);
    }
    let at = clocks.get(e.id) ?? e.ts;
    (data.cpuProfile?.samples ?? []).forEach((node, i) => {
      const delta = data.timeDeltas?.[i] ?? 0;
      at += delta;
      samples.push({ ts: at, node, ms: delta / 1000 });
    });
    clocks.set(e.id, at);
  }
  samples.sort((a, b) => a.ts - b.ts);

  const tasks: Task[] = [];
  const long = events
    .filter((e) => onMain(e) && e.name === "RunTask" && (e.dur ?? 0) > over * 1000)
    .sort((a, b) => a.ts - b.ts);
  for (const task of long) {
    const end = task.ts + (task.dur ?? 0);
    const total = new Map<string, number>();
    for (const s of samples) {
      if (s.ts < task.ts || s.ts >= end || frames.get(s.node)?.functionName === "(idle)") continue;
      const seen = new Set<string>();
      for (let node: number | undefined = s.node; node !== undefined; node = parents.get(node)) {
        const f = frames.get(node);
        if (!f || f.functionName === "(root)") continue;
        const key = f.url ? name(f) : f.functionName;
        if (seen.has(key)) continue;
        seen.add(key);
        total.set(key, (total.get(key) ?? 0) + s.ms);
      }
    }
    tasks.push({
      start: (task.ts - start) / 1000,
      duration: (task.dur ?? 0) / 1000,
      functions: [...total].sort((a, b) => b[1] - a[1]),
    });
  }
  return tasks;
}
