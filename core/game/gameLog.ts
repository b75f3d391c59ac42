import type { Address } from "viem";
import { isRuleSetId, ruleSet } from "../rules/ruleSets.ts";
import type { LogEntry } from "./gameState.ts";

export interface LogWords {
  /** "You", an ENS name or a short address. */
  name: (account: Address) => string;
  /** An amount of the game's token, e.g. "0.01 ETH". */
  amount: (value: bigint) => string;
}

function list(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function keptDice(mask: number): string {
  const kept = [0, 1, 2, 3, 4].filter((i) => (mask >> i) & 1).map((i) => String(i + 1));
  return kept.length ? ` keeping ${kept.length === 1 ? "die" : "dice"} ${list(kept)}` : "";
}

function boxName(ruleSetId: number | null, box: number): string {
  if (ruleSetId === null || !isRuleSetId(ruleSetId)) return `box ${box}`;
  return ruleSet(ruleSetId).boxes[box]?.name ?? `box ${box}`;
}

/** The account a line of the log is about (its face beside the line), or null for the table's. */
export function entryPlayer(entry: LogEntry): Address | null {
  switch (entry.kind) {
    case "created":
      return entry.creator;
    case "invited":
    case "joined":
    case "left":
    case "rollRequested":
    case "rollRefused":
    case "rolled":
    case "scored":
    case "forfeited":
      return entry.player;
    default:
      return null;
  }
}

/** One line of the turn log, also what the live region reads when it happens. */
export function describeEntry(entry: LogEntry, words: LogWords, ruleSetId: number | null): string {
  const { name, amount } = words;
  switch (entry.kind) {
    case "created": {
      const rules = isRuleSetId(entry.ruleSet)
        ? ruleSet(entry.ruleSet).name
        : `rule set ${entry.ruleSet}`;
      return `${name(entry.creator)} opened a ${entry.isPrivate ? "private " : ""}${rules} table for ${entry.seats}, ${amount(entry.bet)} a seat.`;
    }
    case "invited":
      return `${name(entry.player)} ${name(entry.player) === "You" ? "were" : "was"} invited.`;
    case "joined":
      return `${name(entry.player)} took a seat.`;
    case "left":
      return `${name(entry.player)} left the table.`;
    case "started":
      return `The first roll drew the turn order: ${list(entry.order.map(name))}.`;
    case "rollRequested":
      return `${name(entry.player)} ${name(entry.player) === "You" ? "are" : "is"} rolling${keptDice(entry.keepMask)}; waiting for randomness (request #${entry.sequenceNumber}).`;
    case "rollRefused":
      return `The randomness provider refused ${name(entry.player) === "You" ? "your" : `${name(entry.player)}'s`} roll; the fee was credited back and anyone can ask for the roll again.`;
    case "rolled":
      return `${name(entry.player)} rolled ${entry.roll.dice.join(", ")} (roll ${entry.roll.rollNumber} of 3).`;
    case "scored": {
      const bonus = entry.bonus ? ` plus a ${entry.bonus}-point Yahtzee bonus` : "";
      return `${name(entry.player)} scored ${entry.points} in ${boxName(ruleSetId, entry.box)}${bonus}.`;
    }
    case "forfeited":
      return `${name(entry.player)} ran out of time and forfeited.`;
    case "finished": {
      const over = entry.match ? "Match over" : "Game over";
      if (entry.winners.length === 0) return `${over}.`;
      const winners = list(entry.winners.map(name));
      const verb =
        entry.winners.length > 1
          ? "share the pot"
          : name(entry.winners[0]) === "You"
            ? "win"
            : "wins";
      return `${over}: ${winners} ${verb}, ${amount(entry.payoutEach)}${entry.winners.length > 1 ? " each" : ""}.`;
    }
    case "matchCreated":
      return `A match of ${entry.games} games at this table for one stake: the most games won takes the pot, then the most points.`;
    case "gameEnded": {
      const head = `Game ${entry.number} over:`;
      if (entry.winners.length === 0) return `${head} nobody is left to win it.`;
      const best =
        entry.totals[
          entry.players.findIndex((p) => p.toLowerCase() === entry.winners[0].toLowerCase())
        ];
      const winners = list(entry.winners.map(name));
      if (entry.winners.length > 1) return `${head} ${winners} tie with ${best}, a win for each.`;
      return `${head} ${winners} ${name(entry.winners[0]) === "You" ? "win" : "wins"} with ${best}.`;
    }
    case "cancelled":
      return entry.calledOff
        ? "The game was called off: every player still in gets an equal share of the pot back, with no house fee."
        : "The table was cancelled and every bet refunded.";
  }
}
