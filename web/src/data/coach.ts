import { useQuery } from "@tanstack/react-query";
import type { BoxChoice, KeepOption } from "@dicehall/core/coach/advise.ts";
import type { GameRecord, GameReview } from "@dicehall/core/coach/analyse.ts";
import type { CoachReply, CoachRequest } from "@dicehall/core/coach/protocol.ts";
import { ROLLS_PER_TURN } from "@dicehall/core/rules/dice.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { Sheet } from "@dicehall/core/rules/sheet.ts";
import type { TurnAction } from "@dicehall/core/rules/strategy.ts";
import { queryKeys } from "./queryKeys.ts";

/**
 * The coach's client: one Web Worker per page (core/coach/worker.ts, its own chunk, started on the
 * first question), asked through TanStack Query. The worker builds a rule set's table once (or
 * reopens it from IndexedDB) and answers each hint in a few milliseconds, so the page's main
 * thread never runs the solver.
 */

/** What the page needs of a worker; tests pass one that runs core/coach/protocol.ts in-process. */
export interface CoachPort {
  postMessage(request: CoachRequest): void;
  addEventListener(type: "message", listener: (event: { data: CoachReply }) => void): void;
  /** The worker failed (its script did not load, or it threw outside a request). */
  addEventListener(type: "error", listener: (event: { message?: string }) => void): void;
}

const startWorker = (): CoachPort =>
  new Worker(new URL("@dicehall/core/coach/worker.ts", import.meta.url), {
    type: "module",
    name: "coach",
  }) as unknown as CoachPort;

let makePort: () => CoachPort = startWorker;
let port: CoachPort | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (r: CoachReply) => void; reject: (e: Error) => void }>();
const opened = new Map<RuleSetId, Promise<CoachReady>>();

/** Tests: the port the next question goes to (and a fresh client). */
export function setCoachPort(make: () => CoachPort): void {
  makePort = make;
  port = null;
  opened.clear();
  waiting.clear();
}

function connect(): CoachPort {
  if (port) return port;
  const started = makePort();
  port = started;
  // A worker that fails answers nothing more: every question waiting is refused, and the next one
  // starts a new worker.
  started.addEventListener("error", (event) => {
    if (port === started) port = null;
    opened.clear();
    const error = new Error(`The coach stopped: ${event.message ?? "its worker failed"}.`);
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  });
  started.addEventListener("message", ({ data }) => {
    if (data.type === "progress") return;
    const w = waiting.get(data.id);
    if (!w) return;
    waiting.delete(data.id);
    if (data.type === "error") w.reject(new Error(data.message));
    else w.resolve(data);
  });
  return started;
}

type Question = CoachRequest extends infer R
  ? R extends CoachRequest
    ? Omit<R, "id">
    : never
  : never;

function ask(question: Question): Promise<CoachReply> {
  const target = connect();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    target.postMessage({ ...question, id } as CoachRequest);
  });
}

async function result<T>(question: Question): Promise<T> {
  const reply = await ask(question);
  if (reply.type !== "result") throw new Error(`The coach answered ${reply.type}.`);
  return reply.result as T;
}

export type CoachReady = Extract<CoachReply, { type: "ready" }>;

/** The rule set's table, built or reopened once per page. */
export function openCoach(ruleSet: RuleSetId): Promise<CoachReady> {
  let ready = opened.get(ruleSet);
  if (!ready) {
    // A page without workers (or a worker that fails to start) rejects here, not at the caller.
    ready = Promise.resolve().then(() => ask({ type: "open", ruleSet }) as Promise<CoachReady>);
    ready.catch(() => opened.delete(ruleSet));
    opened.set(ruleSet, ready);
  }
  return ready;
}

export const coachAdviseKeep = async (sheet: Sheet, dice: number[], rollsUsed: number) => {
  await openCoach(sheet.ruleSet);
  return result<KeepOption[]>({ type: "adviseKeep", sheet, dice, rollsUsed });
};

export const coachAdviseBox = async (sheet: Sheet, dice: number[]) => {
  await openCoach(sheet.ruleSet);
  return result<BoxChoice[]>({ type: "adviseBox", sheet, dice });
};

/** The coach's own move (the strongest bot): roll with a keep mask, or score a box. */
export const coachAction = async (sheet: Sheet, dice: number[], rollsUsed: number) => {
  await openCoach(sheet.ruleSet);
  return result<TurnAction>({ type: "action", sheet, dice, rollsUsed });
};

export const coachAnalyse = async (game: GameRecord) => {
  await openCoach(game.ruleSet);
  return result<GameReview>({ type: "analyse", game });
};

/** The table's state for a rule set: pending while it builds (seconds the first time). */
export function useCoachTable(ruleSet: RuleSetId | null) {
  return useQuery({
    queryKey: ruleSet === null ? queryKeys.idle("coachTable") : queryKeys.coachTable(ruleSet),
    queryFn: () => openCoach(ruleSet!),
    enabled: ruleSet !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

/** Where a decision stands: after roll `rollsUsed` of a turn with `dice` on the sheet. */
export interface CoachPosition {
  sheet: Sheet;
  dice: number[];
  rollsUsed: number;
}

export interface CoachAdvice {
  /** Every keep (best first); null after the third roll, when only a box is left to choose. */
  keeps: KeepOption[] | null;
  /** Every legal box for these dice, best first. */
  boxes: BoxChoice[];
}

/** The coach's advice for a position, once the table is ready (null position: nothing asked). */
export function useCoachAdvice(position: CoachPosition | null, enabled = true) {
  const table = useCoachTable(position?.sheet.ruleSet ?? null);
  return useQuery({
    queryKey: position
      ? queryKeys.coachAdvice(
          position.sheet.ruleSet,
          JSON.stringify([position.sheet, position.dice, position.rollsUsed]),
        )
      : queryKeys.idle("coachAdvice"),
    queryFn: async (): Promise<CoachAdvice> => {
      const { sheet, dice, rollsUsed } = position!;
      const [keeps, boxes] = await Promise.all([
        rollsUsed < ROLLS_PER_TURN
          ? coachAdviseKeep(sheet, dice, rollsUsed)
          : Promise.resolve(null),
        coachAdviseBox(sheet, dice),
      ]);
      return { keeps, boxes };
    },
    enabled: enabled && !!position && table.isSuccess,
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * The coach's review of a game record (null: nothing to review yet). With `ready` (the game
 * index's review of the same game), that is the answer and the worker is never started.
 */
export function useCoachReview(game: GameRecord | null, cacheKey: string, ready?: GameReview) {
  const table = useCoachTable(ready ? null : (game?.ruleSet ?? null));
  const review = useQuery({
    queryKey: game
      ? queryKeys.coachReview(game.ruleSet, ready ? `${cacheKey}:index` : cacheKey)
      : queryKeys.idle("coachReview"),
    queryFn: () => coachAnalyse(game!),
    initialData: ready,
    enabled: !!game && !ready && table.isSuccess,
    staleTime: Infinity,
    retry: false,
  });
  return { table, review };
}
