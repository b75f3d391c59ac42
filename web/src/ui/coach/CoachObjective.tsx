import { COACH_OBJECTIVE } from "@dicehall/core/coach/objective.ts";

/** What the coach maximises, said wherever its numbers are shown (issue 19, point 7). */
export function CoachObjective() {
  return (
    <p className="coach-objective muted" data-testid="coach-objective">
      {COACH_OBJECTIVE}
    </p>
  );
}
