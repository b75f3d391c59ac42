import { createCoach, type CoachReply, type CoachRequest } from "./protocol.ts";

/**
 * The coach in a Web Worker: `new Worker(new URL("../../core/coach/worker.ts", import.meta.url),
 * { type: "module" })`, then post CoachRequests and read CoachReplies. Building a table takes
 * seconds, so it runs here and never on the page's main thread; the table is kept in the worker's
 * IndexedDB after the first build.
 */

/** What this file needs of a worker's global scope (no DOM). */
interface WorkerScope {
  postMessage(message: CoachReply, transfer: ArrayBuffer[]): void;
  addEventListener(type: "message", listener: (event: { data: CoachRequest }) => void): void;
  indexedDB?: IDBFactory;
}

const scope = globalThis as unknown as WorkerScope;
const handle = createCoach((reply, transfer) => scope.postMessage(reply, transfer ?? []), {
  indexedDB: scope.indexedDB,
});
// Requests are answered one after the other, in the order they came.
let queue = Promise.resolve();
scope.addEventListener("message", (event) => {
  queue = queue.then(() => handle(event.data));
});
