import type { BoxChoice, KeepOption } from "@dicehall/core/coach/advise.ts";
import { isTie } from "@dicehall/core/coach/analyse.ts";
import { ruleSet, type RuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import type { CoachAdvice } from "@/data/coach.ts";
import { CoachObjective } from "@/ui/coach/CoachObjective.tsx";
import { boxWords, expectedWords, keepWords, lossWords } from "@/ui/coach/coachWords.ts";
import "@/ui/coach/coach.css";

/** Options shown under a hint: the best and those close behind it. */
const SHOWN = 5;

const dicePositions = (mask: number) => [0, 1, 2, 3, 4].filter((i) => (mask >> i) & 1);

/** The coach's best move in words, like the heuristic hint's ("Hint: keep …", "Hint: score …"). */
export function coachHeadline(
  ruleSetId: RuleSetId,
  dice: readonly number[],
  advice: CoachAdvice,
): string {
  const box = advice.boxes[0];
  const boxText = `${box.points}${box.yahtzeeBonus ? ` plus the ${box.yahtzeeBonus} bonus` : ""} in ${ruleSet(ruleSetId).boxes[box.box].name}`;
  const best = advice.keeps?.[0];
  const expected = `Expected final score ${expectedWords(best?.expected ?? box.expected)}.`;
  if (!best) return `Hint: score ${boxText}. ${expected}`;
  if (best.stop) return `Hint: score ${boxText} now, without re-rolling. ${expected}`;
  const kept = dicePositions(best.keepMask);
  if (kept.length === 0) return `Hint: re-roll all five dice. ${expected}`;
  // The faces as the options' table lists them (ascending), then which dice they are.
  const faces = kept
    .map((i) => dice[i])
    .sort((x, y) => x - y)
    .join(", ");
  const positions = kept.map((i) => i + 1).join(", ");
  return `Hint: keep ${faces} (${kept.length === 1 ? "die" : "dice"} ${positions}) and roll again. ${expected}`;
}

/** The keep the coach would roll with, or null when it would score now. */
export function coachKeepMask(advice: CoachAdvice | undefined): number | null {
  const best = advice?.keeps?.[0];
  return best && !best.stop ? best.keepMask : null;
}

interface Row {
  choice: string;
  expected: number;
  loss: number;
}

function rowsOf(ruleSetId: RuleSetId, advice: CoachAdvice): Row[] {
  const box = advice.boxes[0];
  const keepRow = (k: KeepOption): Row => ({
    choice: k.stop
      ? `score now (${boxWords(ruleSetId, box.box, box.points)})`
      : `${keepWords(k.kept)}, roll again`,
    expected: k.expected,
    loss: k.loss,
  });
  const boxRow = (b: BoxChoice): Row => ({
    choice: `score ${boxWords(ruleSetId, b.box, b.points + b.yahtzeeBonus)}`,
    expected: b.expected,
    loss: b.loss,
  });
  return advice.keeps
    ? advice.keeps.slice(0, SHOWN).map(keepRow)
    : advice.boxes.slice(0, SHOWN).map(boxRow);
}

/**
 * The exact hint: the coach's best move and, for the best few options, the expected final score
 * each leads to and the points it gives up against the best. Before the coach's table is ready
 * (seconds, the first time for a rule set) the quick heuristic hint stands in.
 */
export function CoachHint({
  ruleSetId,
  dice,
  advice,
  status,
  fallback,
}: {
  ruleSetId: RuleSetId;
  dice: readonly number[] | null;
  advice: CoachAdvice | undefined;
  status: "pending" | "error" | "success";
  /** The heuristic hint's words, for when the coach has not answered. */
  fallback: string;
}) {
  if (!dice || !advice) {
    return (
      <div className="practice-actions__hint" data-testid="hint">
        <p data-testid="hint-text">{fallback}</p>
        {dice && status === "pending" && (
          <p className="muted" role="status">
            The coach is preparing its {ruleSet(ruleSetId).name} table; this quick hint stands in
            until then.
          </p>
        )}
      </div>
    );
  }
  const rows = rowsOf(ruleSetId, advice);
  return (
    <div className="practice-actions__hint" data-testid="hint">
      <p data-testid="hint-text">{coachHeadline(ruleSetId, dice, advice)}</p>
      <table className="coach-table" data-testid="coach-options">
        <caption>
          {advice.keeps ? "Keeps" : "Boxes"}: the expected final score each leads to
        </caption>
        <thead>
          <tr>
            <th scope="col">Choice</th>
            <th scope="col">Expected final score</th>
            <th scope="col">Given up</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className={isTie(r.loss) ? "is-best" : ""}>
              <td>{r.choice}</td>
              <td>{expectedWords(r.expected)}</td>
              <td>{lossWords(r.loss)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <CoachObjective />
    </div>
  );
}
