import { useCallback, useEffect, useState } from "react";

/**
 * My keep choice for the current turn. It lives in sessionStorage so a reload mid-turn shows the
 * same kept dice, and it resets when the turn changes.
 */
export function useKeepMask(storageKey: string, turnKey: string): [number, (mask: number) => void] {
  const read = useCallback((): number => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(storageKey) ?? "null") as {
        turn: string;
        mask: number;
      } | null;
      return saved && saved.turn === turnKey ? saved.mask : 0;
    } catch {
      return 0;
    }
  }, [storageKey, turnKey]);
  const [mask, setMask] = useState(read);
  useEffect(() => setMask(read()), [read]);
  const update = useCallback(
    (next: number) => {
      setMask(next);
      try {
        sessionStorage.setItem(storageKey, JSON.stringify({ turn: turnKey, mask: next }));
      } catch {
        // Without storage the choice lasts until reload.
      }
    },
    [storageKey, turnKey],
  );
  return [mask, update];
}
