import { useEffect, useState, type ReactNode } from "react";

/**
 * Renders its children from the task after its own first commit, not in it. For what the page
 * landed on draws nothing of at first (notices, alerts, the event watch): on a phone, the effects
 * of a whole page taken over at once (every read subscribed, every watch started) are one long
 * task, and the page waits on it; the work under this comes after, a task of its own. Its
 * children must draw nothing in the prerendered page, or taking that page over would not match.
 */
export function Later({ children }: { children: ReactNode }) {
  return useLater() ? children : null;
}

/**
 * False in a component's first commit, true from the task after it: for reads a component starts
 * that its first screen does not need (pass it as a query's `enabled`), so that starting them is a
 * task of its own and not part of the one that draws the page.
 */
export function useLater(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 0);
    return () => clearTimeout(timer);
  }, []);
  return ready;
}
