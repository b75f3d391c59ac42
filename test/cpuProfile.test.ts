import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { type TraceEvent, describeLongTasks, tasksOfTrace } from "../scripts/lib/cpuProfile.ts";

// The phone bench's --profile reads Lighthouse's trace as tasks with the profile's samples in each:
// what it prints is what the page's blocking time is made of, so the tasks and the time per
// function must be right.

describe("the long tasks, as printed", () => {
  it("lists only the long tasks, and their time over 50 ms as the blocking time", () => {
    const tasks = [
      { start: 0, duration: 120, functions: [["hydrate app.js:1", 100] as [string, number]] },
      { start: 130, duration: 30, functions: [] },
      { start: 200, duration: 75, functions: [["react-dom/cjs/x.js:1", 70] as [string, number]] },
    ];
    const lines = describeLongTasks(tasks);
    assert.equal(lines[0], "2 tasks over 50 ms, 95 ms over 50 ms in all (the blocking time)");
    assert.deepEqual(
      lines.filter((l) => l.startsWith("task at")),
      ["task at 0 ms, 120 ms:", "task at 200 ms, 75 ms:"],
    );
    // React's own frames are left out: the app's and the libraries' say more.
    assert.ok(lines.some((l) => l.includes("hydrate app.js:1")));
    assert.ok(!lines.some((l) => l.includes("react-dom")));
  });
});

describe("a Lighthouse trace's long tasks, with the profile's samples in each", () => {
  // The page's main thread (pid 1, tid 1), a service worker's thread beside it (tid 2) and the
  // profiler's own thread (tid 9), which writes both threads' chunks.
  const meta = (tid: number, name: string): TraceEvent => ({
    name: "thread_name",
    pid: 1,
    tid,
    ts: 0,
    args: { name },
  });
  const frame = (functionName: string) => ({
    functionName,
    url: functionName.startsWith("(") ? "" : "http://x/assets/app.js",
    lineNumber: 0,
    columnNumber: 0,
  });
  const chunk = (id: string, samples: number[], deltasUs: number[]): TraceEvent => ({
    name: "ProfileChunk",
    pid: 1,
    tid: 9,
    ts: 0,
    id,
    args: {
      data: {
        cpuProfile: {
          nodes: [
            { id: 1, callFrame: frame("(root)") },
            { id: 2, parent: 1, callFrame: frame("(idle)") },
            { id: 3, parent: 1, callFrame: frame(id === "0x1" ? "hydrate" : "cachePut") },
          ],
          samples,
        },
        timeDeltas: deltasUs,
      },
    },
  });
  const events: TraceEvent[] = [
    meta(1, "CrRendererMain"),
    meta(2, "ServiceWorker thread"),
    { name: "navigationStart", pid: 1, tid: 1, ts: 1_000 },
    {
      name: "Profile",
      ph: "P",
      pid: 1,
      tid: 1,
      ts: 1_000,
      id: "0x1",
      args: { data: { startTime: 1_000 } },
    },
    {
      name: "Profile",
      ph: "P",
      pid: 1,
      tid: 2,
      ts: 1_000,
      id: "0x2",
      args: { data: { startTime: 1_000 } },
    },
    // A 60 ms task from 11 ms after navigation, and a short one that is not long.
    { name: "RunTask", ph: "X", pid: 1, tid: 1, ts: 11_000, dur: 60_000 },
    { name: "RunTask", ph: "X", pid: 1, tid: 1, ts: 80_000, dur: 5_000 },
    // Main thread: idle 10 ms, then 6 samples of 10 ms in "hydrate", then idle.
    chunk(
      "0x1",
      [2, 3, 3, 3, 3, 3, 3, 2],
      [10_000, 1_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000],
    ),
    // The service worker's samples at the same times must not count.
    chunk("0x2", [3, 3, 3], [20_000, 10_000, 10_000]),
  ];

  it("finds the main thread's long tasks and names what their samples ran", () => {
    const tasks = tasksOfTrace(events, 50);
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].start, 10);
    assert.equal(tasks[0].duration, 60);
    assert.deepEqual(
      tasks[0].functions.map(([fn]) => fn),
      ["hydrate app.js:0:0"],
    );
    // The samples inside the task: 1 + 5 × 10 ms (the last one is past its end).
    assert.equal(Math.round(tasks[0].functions[0][1]), 51);
  });

  it("names frames as it is told (the build's source maps)", () => {
    const [task] = tasksOfTrace(events, 50, (f) => `${f.functionName}@${f.lineNumber}`);
    assert.deepEqual(
      task.functions.map(([fn]) => fn),
      ["hydrate@0"],
    );
  });
});
