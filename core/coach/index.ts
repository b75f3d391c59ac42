/** The coach: the exact solver of the four rule sets and what the app asks of it. */
export {
  buildTable,
  modelOf,
  stateIndex,
  type BuildOptions,
  type JokerRule,
  type RuleSetModel,
  type SolverTable,
  type TurnState,
} from "./solver.ts";
export {
  adviseBox,
  adviseKeep,
  coachBox,
  coachKeepMask,
  coachTurnAction,
  COACH_OBJECTIVE,
  KEEP_ALL,
  positionValue,
  rollValue,
  stateValue,
  turnStateOf,
  type BoxChoice,
  type KeepOption,
} from "./advise.ts";
export {
  analyseGame,
  type Choice,
  type DecisionReview,
  type GameRecord,
  type GameReview,
  type PlayerRecord,
  type PlayerReview,
  type SeriesPoint,
  type TurnRecord,
} from "./analyse.ts";
export { deserialiseTable, serialiseTable, type ValueWidth } from "./serialise.ts";
export {
  playGame,
  recordGame,
  seededRandom,
  simulate,
  type SimulationResult,
  type TurnChooser,
} from "./simulate.ts";
export { createCoach, type CoachReply, type CoachRequest } from "./protocol.ts";
export { loadStoredTable, storeTable } from "./store.ts";
