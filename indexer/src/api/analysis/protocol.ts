import type { RpcLog } from "viem";
import type { GameReview } from "@dicehall/core/coach/analyse.ts";
import type { PlayerAccuracy } from "@dicehall/core/game/gameAnalysis.ts";
import type { RuleSetId } from "@dicehall/core/rules/ruleSets.ts";

/** What the analyser posts to its worker thread and what comes back. */
export interface AnalysisRequest {
  id: number;
  gameId: string;
  logs: RpcLog[];
  /** Whether the full review is wanted back (the analysis page), or only the numbers. */
  review: boolean;
  /**
   * For a match: the one game of it to review. Without it a match's numbers are its games' added
   * up (core/game/gameAnalysis.ts analyseMatchLogs), with no review.
   */
  game?: number;
}

export type AnalysisReply =
  | {
      id: number;
      ok: true;
      /** Null: the game did not finish, or has no moves the coach can follow. */
      analysed: { ruleSet: RuleSetId; players: PlayerAccuracy[]; review: GameReview | null } | null;
    }
  | { id: number; ok: false; error: string };
