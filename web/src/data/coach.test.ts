import { afterEach, describe, expect, it } from "vitest";
import type { CoachRequest } from "@dicehall/core/coach/protocol.ts";
import { newSheet } from "@dicehall/core/rules/sheet.ts";
import { inProcessCoach } from "@/test/coachPort.ts";
import { coachAction, coachAdviseBox, coachAdviseKeep, openCoach, setCoachPort } from "./coach.ts";

/** The in-process coach, with every request it was sent. */
function watchedCoach() {
  const sent: CoachRequest[] = [];
  let started = 0;
  setCoachPort(() => {
    started++;
    const port = inProcessCoach();
    return {
      postMessage: (request) => {
        sent.push(request);
        port.postMessage(request);
      },
      addEventListener: port.addEventListener,
    };
  });
  return { sent, started: () => started };
}

afterEach(() =>
  setCoachPort(() => {
    throw new Error("no worker in this test");
  }),
);

describe("the coach's client", () => {
  it("starts one worker, opens a rule set's table once, and answers through it", async () => {
    const coach = watchedCoach();
    const sheet = newSheet(2);
    const [keeps, boxes] = await Promise.all([
      coachAdviseKeep(sheet, [6, 6, 6, 2, 1], 1),
      coachAdviseBox(sheet, [6, 6, 6, 2, 1]),
    ]);
    expect(keeps[0].kept).toEqual([6, 6, 6]);
    expect(keeps[0].loss).toBe(0);
    expect(boxes[0].expected).toBeGreaterThan(boxes.at(-1)!.expected);
    expect(await coachAction(sheet, [6, 6, 6, 2, 1], 1)).toEqual({
      action: "roll",
      keepMask: keeps[0].keepMask,
    });
    expect(coach.started()).toBe(1);
    expect(coach.sent.filter((r) => r.type === "open")).toHaveLength(1);
    expect(new Set(coach.sent.map((r) => r.id)).size).toBe(coach.sent.length);
    expect((await openCoach(2)).startValue).toBeCloseTo(215.2221, 4);
  });

  it("turns the worker's error into a rejection, and a worker that cannot start into one", async () => {
    watchedCoach();
    await expect(coachAdviseKeep(newSheet(2), [1, 2, 3, 4, 5], 3)).rejects.toThrow(
      /after roll 1 or 2/,
    );
    setCoachPort(() => {
      throw new Error("Workers are off");
    });
    await expect(openCoach(2)).rejects.toThrow("Workers are off");
    // A later try asks again rather than keeping the failure.
    watchedCoach();
    expect((await openCoach(2)).ruleSet).toBe(2);
  });

  it("refuses what was waiting when the worker fails, and starts a new one for the next question", async () => {
    let fail: ((event: { message?: string }) => void) | undefined;
    setCoachPort(() => ({
      postMessage() {},
      addEventListener(type: "message" | "error", listener: (event: never) => void) {
        if (type === "error") fail = listener as typeof fail;
      },
    }));
    const waiting = openCoach(2);
    await Promise.resolve();
    await Promise.resolve();
    fail!({ message: "the script did not load" });
    await expect(waiting).rejects.toThrow("The coach stopped: the script did not load.");
    const coach = watchedCoach();
    expect((await openCoach(2)).ruleSet).toBe(2);
    expect(coach.started()).toBe(1);
  });
});
