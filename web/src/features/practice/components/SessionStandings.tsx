import { MatchStandings } from "@/ui/table/MatchStandings.tsx";
import type { PracticeState } from "../engine/engine.ts";

/** The running standings of the match, as the hall scores one (a tie counts as a win for each). */
export function SessionStandings({ state }: { state: PracticeState }) {
  return (
    <MatchStandings
      names={state.names}
      labels={state.names}
      games={state.results}
      length={state.games}
    />
  );
}
