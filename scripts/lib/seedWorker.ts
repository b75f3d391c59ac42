// A worker thread of the seeder (scripts/lib/seedIndex.ts): plays, analyses and turns into rows the
// games it is asked for, with the coach's tables loaded once per rule set.
import { parentPort, workerData } from "node:worker_threads";
import { coachTables, playerPool, seedGame, type HistorySpec } from "./seedGames.ts";

const { spec, cacheDir } = workerData as { spec: HistorySpec; cacheDir: string };
const pool = playerPool(spec);
const tableOf = coachTables(cacheDir);

parentPort!.on("message", ({ from, to }: { from: number; to: number }) => {
  const games = [];
  for (let i = from; i < to; i++) games.push(seedGame(spec, pool, tableOf, i));
  parentPort!.postMessage(games);
});
