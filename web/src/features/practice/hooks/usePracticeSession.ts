import { useEffect, useReducer } from "react";
import {
  initialPractice,
  practiceReducer,
  type PracticeAction,
  type PracticeState,
} from "../engine/engine.ts";
import { localStore } from "@/data/localStore.ts";
import { loadPractice, savePractice } from "../engine/storage.ts";

/** The practice session, restored from localStorage and saved back after every action. */
export function usePracticeSession(): [PracticeState, (action: PracticeAction) => void] {
  const [state, dispatch] = useReducer(
    practiceReducer,
    undefined,
    () => loadPractice(localStore()) ?? initialPractice(),
  );
  useEffect(() => savePractice(localStore(), state), [state]);
  return [state, dispatch];
}
