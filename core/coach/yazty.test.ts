import { BEST_CHANCE, P_FIVE_OF_A_KIND, P_SIX, describeRuleSet } from "./ruleSetSuite.ts";
import { sheetOpen } from "./testkit.ts";

describeRuleSet({
  ruleSet: 2,
  start: "215.2221",
  byHand: [
    ["Random alone", sheetOpen(2, [12]), BEST_CHANCE],
    ["Yatzi alone", sheetOpen(2, [11]), 50 * P_FIVE_OF_A_KIND],
    // No upper bonus: the total does not matter.
    ["Play of 6 alone", sheetOpen(2, [5], 60), 30 * P_SIX],
  ],
  twoBoxes: [
    ["High and Low Sequence", sheetOpen(2, [9, 10])],
    ["Three and Four of a Kind", sheetOpen(2, [6, 7])],
    ["Full House and Yatzi", sheetOpen(2, [8, 11])],
    ["Play of 1 and Play of 6", sheetOpen(2, [0, 5])],
  ],
});
