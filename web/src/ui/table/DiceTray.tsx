import { Die } from "./Die.tsx";
import { keptAt, type TableHandlers, type TableModel } from "@dicehall/core/game/tableModel.ts";

export function DiceTray({ model, handlers }: { model: TableModel; handlers: TableHandlers }) {
  const roller = model.currentSeat === null ? null : model.players[model.currentSeat];
  const canKeep =
    model.myTurn && model.rollsUsed > 0 && model.rollsUsed < model.maxRolls && !model.rolling;
  const title = model.diceTitle ?? (roller ? `${roller.name}'s dice` : "Dice");
  return (
    <section
      className={`tray${model.diceFromLastTurn ? " tray--last" : ""}`}
      aria-labelledby="tray-title"
      data-testid="dice-tray"
    >
      <div className="tray__head">
        <h2 id="tray-title" className="tray__title">
          {title}
        </h2>
        <p className="tray__rolls">
          {Array.from({ length: model.maxRolls }, (_, i) => (
            <span
              key={i}
              className={`tray__roll-dot${i < model.rollsUsed ? " is-used" : ""}`}
              aria-hidden="true"
            />
          ))}
          <span aria-hidden="true">
            Roll {model.rollsUsed}/{model.maxRolls}
          </span>
          <span className="sr-only">
            Roll {model.rollsUsed} of {model.maxRolls}
          </span>
        </p>
      </div>
      <div className="tray__dice" role="group" aria-label="Dice (press 1 to 5 to keep or release)">
        {model.dice.map((value, i) => (
          <Die
            key={i}
            index={i}
            value={value}
            kept={keptAt(model.keepMask, i) && model.rollsUsed > 0}
            rolling={model.rolling}
            onToggle={canKeep ? () => handlers.onToggleKeep(i) : undefined}
          />
        ))}
      </div>
      <div className="tray__actions">
        {(model.myTurn || model.canRoll) && (
          <button
            type="button"
            className="button button--primary tray__roll"
            onClick={handlers.onRoll}
            disabled={!model.canRoll}
            aria-keyshortcuts="R"
          >
            {/* One flex item, so the label and its cost flow as text: the cost wraps whole, and
                the button's name reads "Re-roll (2 left) · fee 0.000021 ETH". */}
            <span>
              {model.rollLabel}
              {model.rollCost && (
                <>
                  {" "}
                  <span className="tray__roll-cost">· {model.rollCost}</span>
                </>
              )}
            </span>
          </button>
        )}
        {canKeep && (
          <p className="tray__tip">
            Tap a die<span className="kbd-only"> (or press 1–5)</span> to keep it for the next roll.
          </p>
        )}
      </div>
      {model.rollHint && <p className="tray__hint">{model.rollHint}</p>}
      {model.busyText && <p className="tray__busy">{model.busyText}</p>}
      {model.errorText && (
        <p className="tray__error" role="alert">
          {model.errorText}
        </p>
      )}
    </section>
  );
}
