import { useCallback, useRef, useState } from "react";

/**
 * A button label that holds still while the work it started runs. The Join button of a token table
 * reads "Approve TUSD and join"; once the approval lands the allowance covers the bet and the label
 * would turn into "Join" while the join itself is still being signed.
 */
export function useHeldLabel(
  label: string,
): [shown: string, hold: <T>(work: () => Promise<T>) => Promise<T>] {
  const [held, setHeld] = useState<string | null>(null);
  const current = useRef(label);
  current.current = label;
  const hold = useCallback(async <T>(work: () => Promise<T>): Promise<T> => {
    setHeld(current.current);
    try {
      return await work();
    } finally {
      setHeld(null);
    }
  }, []);
  return [held ?? label, hold];
}
