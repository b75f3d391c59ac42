import { useEffect, useReducer } from "react";
import {
  initialPractice,
  practiceReducer,
  type PracticeAction,
  type PracticeState,
} from "../engine/engine.ts";
import { loadPractice, savePractice } from "../engine/storage.ts";

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** The practice session, restored from localStorage and saved back after every action. */
export function usePracticeSession(): [PracticeState, (action: PracticeAction) => void] {
  const [state, dispatch] = useReducer(
    practiceReducer,
    undefined,
    () => loadPractice(storage()) ?? initialPractice(),
  );
  useEffect(() => savePractice(storage(), state), [state]);
  return [state, dispatch];
}
