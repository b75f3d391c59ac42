import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from "react";

/**
 * One polite live region for the whole app. `useAnnounce()` gives a function that queues a
 * message; messages within the same moment are read together, and the same text twice in a row
 * is still read (the region is cleared in between).
 */
type Announce = (message: string) => void;

const AnnounceContext = createContext<Announce>(() => {});

export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [text, setText] = useState("");
  const queue = useRef<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const announce = useCallback<Announce>((message) => {
    if (!message) return;
    queue.current.push(message);
    if (timer.current) return;
    setText("");
    timer.current = setTimeout(() => {
      timer.current = null;
      setText(queue.current.join(" "));
      queue.current = [];
    }, 60);
  }, []);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="live-region">
        {text}
      </div>
    </AnnounceContext.Provider>
  );
}

export function useAnnounce(): Announce {
  return useContext(AnnounceContext);
}
