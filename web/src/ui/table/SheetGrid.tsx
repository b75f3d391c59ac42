import { Fragment, type RefObject } from "react";
import { ruleSet, type BoxInfo } from "@dicehall/core/rules/ruleSets.ts";
import { totals, type BoxOption } from "@dicehall/core/rules/sheet.ts";
import type { TableHandlers, TableModel, TablePlayer } from "@dicehall/core/game/tableModel.ts";
import { AddressName } from "../Address.tsx";

interface SheetGridProps {
  model: TableModel;
  handlers: TableHandlers;
  /** My open boxes' buttons, so the arrow keys can move focus over them. */
  boxRefs: RefObject<Map<number, HTMLButtonElement>>;
  onFocusBox: (box: number) => void;
  /** Explains a box that can't be chosen (announced). */
  onBlocked: (reason: string) => void;
  /** A press on a box I may fill: GameTable scores it or asks for a second press. */
  onChoose?: (box: number) => void;
  /** Why a box would ask for a second press; null when one press is enough. */
  guard?: (box: number) => string | null;
  /** The box that asked for a second press and waits for it. */
  armedBox?: number | null;
}

function OpenBox({
  box,
  option,
  canScore,
  scoring,
  scoringName,
  blockedReason,
  handlers,
  boxRefs,
  onFocusBox,
  onBlocked,
  onChoose,
  guard,
  armedBox,
}: {
  box: BoxInfo;
  option: BoxOption | undefined;
  canScore: boolean;
  /** My score being sent, if one is. */
  scoring: TableModel["scoring"];
  scoringName: string;
  blockedReason: string | null;
  handlers: TableHandlers;
  boxRefs: SheetGridProps["boxRefs"];
  onFocusBox: (box: number) => void;
  onBlocked: (reason: string) => void;
  onChoose?: (box: number) => void;
  guard?: (box: number) => string | null;
  armedBox?: number | null;
}) {
  const legal = canScore && option?.legal === true;
  const points = option ? option.points + option.bonus : null;
  const chosen = !!scoring && scoring.box === box.index;
  const reason = !canScore
    ? (blockedReason ?? "Roll first, on your turn.")
    : option && !option.legal
      ? option.reason
      : undefined;
  const confirm = legal ? (guard?.(box.index) ?? null) : null;
  const armed = legal && armedBox === box.index;
  const label = chosen
    ? `Scoring ${box.name}: ${scoring.points}…`
    : scoring
      ? `${box.name}: ${option?.legal ? `would score ${points}` : "open"}. Not now: ${scoringName} is being scored.`
      : legal
        ? `${box.name}: score ${points}${option!.bonus ? `, including a ${option!.bonus} Yahtzee bonus` : ""}${
            armed ? `. Press again to confirm.` : ""
          }`
        : `${box.name}: open${reason ? `. ${reason}` : ""}`;
  const preview = (canScore || !!scoring) && option;
  return (
    <button
      type="button"
      ref={(el) => {
        if (el) boxRefs.current.set(box.index, el);
        else boxRefs.current.delete(box.index);
      }}
      className={`box-choice${legal ? " is-legal" : ""}${option && !option.legal ? " is-illegal" : ""}${
        (legal || scoring) && points === 0 ? " is-zero" : ""
      }${chosen ? " is-scoring" : ""}${scoring && !chosen ? " is-waiting" : ""}${armed ? " is-armed" : ""}`}
      aria-disabled={legal ? undefined : true}
      aria-busy={chosen ? true : undefined}
      aria-label={label}
      title={chosen ? label : reason}
      data-testid={`box-${box.index}`}
      data-confirm={confirm ? "ask" : undefined}
      onFocus={() => onFocusBox(box.index)}
      onClick={() =>
        scoring
          ? onBlocked(`Scoring ${scoringName}: wait for it to land.`)
          : legal
            ? onChoose
              ? onChoose(box.index)
              : handlers.onScore(box.index)
            : onBlocked(`${box.name}: ${reason ?? "not available."}`)
      }
    >
      {chosen ? (
        <span className="box-choice__points">{scoring.points}…</span>
      ) : preview ? (
        <>
          <span className="box-choice__points">{option.legal ? points : "✕"}</span>
          {!option.legal && <span className="sr-only">{option.reason}</span>}
        </>
      ) : (
        <span className="box-choice__open" aria-hidden="true">
          ·
        </span>
      )}
    </button>
  );
}

function Cell({
  player,
  box,
  ...rest
}: { player: TablePlayer; box: BoxInfo; isScoring: boolean } & Omit<
  Parameters<typeof OpenBox>[0],
  "box"
>) {
  const points = player.sheet.boxes[box.index];
  if (points !== null) return <td className="sheet__cell is-filled">{points}</td>;
  if (rest.isScoring) {
    return (
      <td className="sheet__cell is-open is-mine">
        <OpenBox box={box} {...rest} />
      </td>
    );
  }
  return (
    <td className="sheet__cell is-open">
      <span className="sr-only">open</span>
    </td>
  );
}

export function SheetGrid({
  model,
  handlers,
  boxRefs,
  onFocusBox,
  onBlocked,
  onChoose,
  guard,
  armedBox,
}: SheetGridProps) {
  const info = ruleSet(model.ruleSet);
  const options = new Map((model.options ?? []).map((o) => [o.box, o]));
  // While my score is out the previews stay, but no box can be chosen.
  const canScore = model.options !== null && !model.scoring;
  const upper = info.boxes.filter((b) => b.section === "upper");
  const lower = info.boxes.filter((b) => b.section === "lower");
  const sums = model.players.map((p) => totals(p.sheet));
  /** The upper bonus can still come: an upper box is open and the player still plays. */
  const upperOpen = (p: TablePlayer) =>
    !p.forfeited && upper.some((b) => p.sheet.boxes[b.index] === null);

  const rows = (boxes: BoxInfo[]) =>
    boxes.map((box) => (
      <tr key={box.index}>
        <th scope="row" className="sheet__box" title={box.rule}>
          <span className="sheet__box-name">{box.name}</span>{" "}
          <span className="sheet__box-rule">{box.short}</span>
        </th>
        {model.players.map((player, seat) => (
          <Cell
            key={player.id}
            player={player}
            box={box}
            isScoring={seat === model.scoringSeat}
            option={options.get(box.index)}
            canScore={canScore}
            scoring={model.scoring ?? null}
            scoringName={model.scoring ? (info.boxes[model.scoring.box]?.name ?? "") : ""}
            blockedReason={model.blockedReason ?? null}
            handlers={handlers}
            boxRefs={boxRefs}
            onFocusBox={onFocusBox}
            onBlocked={onBlocked}
            onChoose={onChoose}
            guard={guard}
            armedBox={armedBox}
          />
        ))}
      </tr>
    ));

  return (
    <div className="sheet-wrap" tabIndex={-1}>
      <table className="sheet" aria-label="Score sheets">
        <thead>
          <tr>
            <th scope="col" className="sheet__corner">
              <span className="sr-only">Box</span>
              <span aria-hidden="true">{info.name}</span>
            </th>
            {model.players.map((player, seat) => (
              <th
                key={player.id}
                scope="col"
                className={`sheet__player${seat === model.currentSeat ? " is-current" : ""}${
                  player.forfeited ? " is-forfeited" : ""
                }${player.isMe ? " is-me" : ""}`}
                aria-current={seat === model.currentSeat ? "true" : undefined}
              >
                <span className="sheet__player-name">
                  {player.address ? <AddressName address={player.address} /> : player.name}
                </span>
                {seat === model.currentSeat && <span className="sheet__player-tag">to play</span>}
                {player.forfeited && <span className="sheet__player-tag">forfeited</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows(upper)}
          <tr className="sheet__sum">
            <th scope="row">Upper total</th>
            {sums.map((t, i) => (
              <td key={model.players[i].id}>
                {info.upperBonus ? (
                  <>
                    {t.upper}
                    <span className="sheet__of"> / {info.upperBonus.threshold}</span>
                    <span
                      className="sheet__progress"
                      aria-hidden="true"
                      style={{
                        ["--progress" as string]: `${Math.min(100, (t.upper / info.upperBonus.threshold) * 100)}%`,
                      }}
                    />
                  </>
                ) : (
                  t.upper
                )}
              </td>
            ))}
          </tr>
          {info.upperBonus && (
            <tr className="sheet__sum">
              <th scope="row">Upper bonus (+{info.upperBonus.points})</th>
              {sums.map((t, i) => (
                <td key={model.players[i].id}>
                  {t.upperBonus ? (
                    `+${t.upperBonus}`
                  ) : upperOpen(model.players[i]) ? (
                    <span className="sheet__need">
                      {info.upperBonus!.threshold - t.upper} to go
                    </span>
                  ) : (
                    // Every upper box is filled (or the player is out): the bonus was missed.
                    "0"
                  )}
                </td>
              ))}
            </tr>
          )}
          {rows(lower)}
          {info.yahtzeeBonus && (
            <tr className="sheet__sum">
              <th scope="row">Yahtzee bonus</th>
              {model.players.map((p, i) => (
                <td key={p.id}>
                  {sums[i].yahtzeeBonus ? (
                    <Fragment>
                      +{sums[i].yahtzeeBonus}
                      <span className="sheet__of"> ({p.sheet.yahtzeeBonuses}×)</span>
                    </Fragment>
                  ) : (
                    "–"
                  )}
                </td>
              ))}
            </tr>
          )}
          <tr className="sheet__total">
            <th scope="row">Total</th>
            {sums.map((t, i) => (
              <td key={model.players[i].id} data-testid={`total-${i}`}>
                {t.total}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
