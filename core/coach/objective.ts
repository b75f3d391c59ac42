/** What the coach maximises, in player words, for the UI (issue 19, point 7). */
export const COACH_OBJECTIVE =
  "The coach plays for the highest expected score of your own sheet. It does not look at the other players, so it is not the play that maximises your chance of beating them.";
