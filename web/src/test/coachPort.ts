import { createCoach, type CoachReply } from "@dicehall/core/coach/protocol.ts";
import type { CoachPort } from "@/data/coach.ts";

/**
 * The coach's worker, faked: the same message handler (core/coach/protocol.ts) run in the test's
 * own thread, replies delivered asynchronously as a worker's would be. Use a rule set with a quick
 * table (Yazty builds in a tenth of a second).
 */
export function inProcessCoach(): CoachPort {
  const listeners: ((event: { data: CoachReply }) => void)[] = [];
  const handle = createCoach((reply) =>
    setTimeout(() => listeners.forEach((l) => l({ data: reply })), 0),
  );
  let queue = Promise.resolve();
  return {
    postMessage: (request) => {
      queue = queue.then(() => handle(request));
    },
    addEventListener: (type: "message" | "error", listener: (event: never) => void) => {
      if (type === "message") listeners.push(listener as (event: { data: CoachReply }) => void);
    },
  };
}
