import { useState } from "react";
import type { PracticeAction, PracticeState } from "../engine/engine.ts";

/** Rename players mid-session (a name is saved when the field loses focus or on Enter). */
export function PlayerNames({
  state,
  dispatch,
}: {
  state: PracticeState;
  dispatch: (action: PracticeAction) => void;
}) {
  return (
    <details className="card practice-names">
      <summary>Players’ names</summary>
      <div className="field-row">
        {state.names.map((name, seat) => (
          <NameField key={`${seat}:${name}`} seat={seat} name={name} dispatch={dispatch} />
        ))}
      </div>
    </details>
  );
}

function NameField({
  seat,
  name,
  dispatch,
}: {
  seat: number;
  name: string;
  dispatch: (action: PracticeAction) => void;
}) {
  const [value, setValue] = useState(name);
  const save = () => {
    if (value !== name) dispatch({ type: "rename", seat, name: value });
  };
  return (
    <div className="field">
      <label htmlFor={`rename-${seat}`}>Player {seat + 1}</label>
      <input
        id={`rename-${seat}`}
        type="text"
        value={value}
        maxLength={24}
        autoComplete="off"
        onChange={(e) => setValue(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            save();
          }
        }}
      />
    </div>
  );
}
