import {
  BEST_CHANCE,
  P_FIVE_OF_A_KIND,
  P_SIX,
  binomialAtLeast,
  describeRuleSet,
} from "./ruleSetSuite.ts";
import { sheetOpen } from "./testkit.ts";

describeRuleSet({
  ruleSet: 3,
  start: "337.2078",
  byHand: [
    ["Chance alone", sheetOpen(3, [12], 63), BEST_CHANCE],
    // Misère is Chance turned over: 36 minus the least sum, 36 - (35 - 70/3).
    ["Misère alone", sheetOpen(3, [15], 63), 36 - (35 - BEST_CHANCE)],
    ["Yahtzee alone (no bonus, no Joker)", sheetOpen(3, [11], 63), 50 * P_FIVE_OF_A_KIND],
    [
      "Sixes alone, three 6s for the bonus",
      sheetOpen(3, [5], 45),
      30 * P_SIX + 35 * binomialAtLeast(5, P_SIX, 3),
    ],
  ],
  twoBoxes: [
    ["Pair and Double Pair", sheetOpen(3, [13, 14], 63)],
    ["Full House and Misère", sheetOpen(3, [8, 15], 63)],
    ["Chance and Misère", sheetOpen(3, [12, 15], 63)],
    ["Sixes and Full House, 18 short of the bonus", sheetOpen(3, [5, 8], 45)],
  ],
});
