import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { boxOptions } from "@dicehall/core/rules/sheet.ts";
import type { TableModel } from "@dicehall/core/game/tableModel.ts";
import {
  botToMove,
  ROLLS_PER_TURN,
  rollBlocker,
  type BotLevel,
  type PracticeState,
} from "./engine.ts";

const BOT_NAMES: Record<BotLevel, string> = { coach: "coach bot", casual: "casual bot" };

/**
 * The shared table's model for a practice game. Hot seat: whoever's turn it is holds the dice,
 * so the current seat is "me" and the table's keys and readouts speak to them.
 */
export function practiceTableModel(state: PracticeState, rolling = false): TableModel | null {
  const game = state.game;
  if (!game) return null;
  const info = ruleSet(state.ruleSet);
  const seat = game.currentSeat;
  const over = seat === null;
  const current = over ? null : state.names[seat];
  const blocker = rollBlocker(game);
  // A bot's turn: the table shows its moves, and nobody at the device moves for it.
  const bot = botToMove(state);
  const rounds = info.boxes.length;
  // Until the next roll, the previous turn's dice stay on the table, greyed and named.
  const last = !over && !game.dice && !rolling && game.lastTurn ? game.lastTurn : null;

  let turnText: string;
  if (over) {
    turnText =
      state.phase === "sessionOver" ? "Match over." : `Game ${game.number} of ${state.games} over.`;
  } else {
    const rollWords =
      game.rollsUsed === 0 ? "no rolls yet" : `roll ${game.rollsUsed} of ${ROLLS_PER_TURN}`;
    turnText = `${current}'s turn: round ${game.round} of ${rounds}, ${rollWords}. Game ${game.number} of ${state.games}.`;
  }

  return {
    ruleSet: state.ruleSet,
    players: state.names.map((name, i) => ({
      id: `seat-${i}`,
      // A bot's column says which bot it is.
      name: state.bots?.[i] ? `${name} (${BOT_NAMES[state.bots[i]]})` : name,
      isMe: i === seat,
      sheet: game.sheets[i],
      forfeited: false,
    })),
    currentSeat: seat,
    round: game.round,
    rounds,
    dice: game.dice ?? last?.dice ?? [null, null, null, null, null],
    // Hot seat: everyone is "you", so the dice are named after the player holding them.
    diceTitle: last
      ? `${state.names[last.seat]}'s last dice`
      : current === null
        ? "Dice"
        : `${current}'s dice`,
    diceFromLastTurn: last !== null,
    rollsUsed: game.rollsUsed,
    maxRolls: ROLLS_PER_TURN,
    keepMask: game.keepMask,
    rolling,
    myTurn: !over && !bot,
    canRoll: !over && !bot && !rolling && blocker === null,
    rollLabel:
      game.rollsUsed === 0 ? "Roll" : `Roll again (${ROLLS_PER_TURN - game.rollsUsed} left)`,
    rollHint: over
      ? null
      : bot
        ? `${current} (${BOT_NAMES[bot]}) is playing.`
        : game.rollsUsed > 0
          ? blocker
          : `${current}, roll to start your turn.`,
    options:
      !over && !bot && game.dice && !rolling ? boxOptions(game.sheets[seat], game.dice) : null,
    scoringSeat: over ? null : seat,
    turnText,
    log: state.log,
    busyText: null,
    errorText: null,
  };
}
