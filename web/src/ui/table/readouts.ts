import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { totals } from "@dicehall/core/rules/sheet.ts";
import { keptAt, type TableModel } from "@dicehall/core/game/tableModel.ts";

/** What the D, C, S and T keys read aloud: plain sentences from the table model. */

export function readDice(model: TableModel): string {
  if (model.rolling) return "The dice are rolling.";
  if (model.dice.every((d) => d === null)) return "No dice rolled yet this turn.";
  const faces = model.dice.map((d) => (d === null ? "not rolled" : String(d))).join(", ");
  if (model.diceFromLastTurn) {
    return `No dice rolled yet this turn. ${model.diceTitle ?? "Last dice"}: ${faces}.`;
  }
  const kept = model.dice.flatMap((_, i) => (keptAt(model.keepMask, i) ? [String(i + 1)] : []));
  const keep = kept.length ? ` Keeping die ${kept.join(", ")}.` : "";
  return `Dice: ${faces}. Roll ${model.rollsUsed} of ${model.maxRolls}.${keep}`;
}

export function readSheet(model: TableModel): string {
  const seat = model.scoringSeat ?? model.players.findIndex((p) => p.isMe);
  const player = model.players[seat];
  if (!player) return "You have no score sheet at this table.";
  const info = ruleSet(model.ruleSet);
  const preview = new Map((model.options ?? []).map((o) => [o.box, o]));
  const boxes = info.boxes.map((box) => {
    const points = player.sheet.boxes[box.index];
    if (points !== null) return `${box.name} ${points}`;
    const option = preview.get(box.index);
    if (!option) return `${box.name} open`;
    return option.legal
      ? `${box.name} open, would score ${option.points + option.bonus}`
      : `${box.name} open, not allowed now`;
  });
  const t = totals(player.sheet);
  const bonus = info.upperBonus
    ? ` Upper section ${t.upper} of ${info.upperBonus.threshold}${t.upperBonus ? `, bonus ${t.upperBonus}` : ""}.`
    : "";
  const who = player.isMe ? "Your sheet" : `${player.name}'s sheet`;
  return `${who}: ${boxes.join("; ")}.${bonus} Total ${t.total}.`;
}

export function readScores(model: TableModel): string {
  if (model.players.length === 0) return "No scores yet.";
  const parts = model.players.map((p) => {
    const forfeited = p.forfeited ? ", forfeited" : "";
    return `${p.name} ${totals(p.sheet).total}${forfeited}`;
  });
  // "After round N" only when every player still in has filled N boxes; mid-round some have
  // scored the round and some not, and the totals are not "after" it.
  const filled = model.players
    .filter((p) => !p.forfeited)
    .map((p) => p.sheet.boxes.filter((b) => b !== null).length);
  const done = Math.min(...filled);
  const when =
    filled.length > 0 && done === Math.max(...filled) && done > 0
      ? done >= model.rounds
        ? `Final totals`
        : `Totals after round ${done} of ${model.rounds}`
      : `Totals so far, in round ${Math.max(model.round, 1)} of ${model.rounds}`;
  return `${when}: ${parts.join("; ")}.`;
}

export function readTurn(model: TableModel): string {
  return model.turnText;
}
