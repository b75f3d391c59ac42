import { Link } from "react-router";
import type { WireAccuracyPoint } from "@dicehall/core/indexer/indexerWire.ts";
import { isRuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { choiceWords, lossWords } from "@/ui/coach/coachWords.ts";

/** A player's biggest mistakes in the coach's words (a chunk of its own: see PlayerPage). */
export function Mistakes({ points }: { points: WireAccuracyPoint[] }) {
  if (points.length === 0) return null;
  return (
    <section aria-labelledby="player-mistakes">
      <h2 id="player-mistakes">Biggest mistakes</h2>
      <ol className="player__mistakes" data-testid="player-mistakes">
        {points.map((p) => {
          const m = p.mistake!;
          const id = isRuleSetId(p.ruleSet) ? p.ruleSet : 0;
          return (
            <li key={p.gameId}>
              <Link to={`/games/${p.gameId}/analysis`}>Game #{p.gameId}</Link>, turn {m.turn + 1}{" "}
              after roll {m.rollsUsed} ({m.dice.join("-")}): {choiceWords(id, m.played)} instead of{" "}
              {choiceWords(id, m.best)}, {lossWords(m.loss)}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
