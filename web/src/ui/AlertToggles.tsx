import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useConnection } from "wagmi";
import { indexerUrl } from "@/data/indexerStatus.ts";
import {
  askNotifyPermission,
  setSoundOn,
  unlockAudioOnFirstClick,
  useNotifyPermission,
  useSoundOn,
} from "./alerts.ts";

// The push settings and their code load on the first "Notify me" (none of it is in the first load).
const PushPanel = lazy(() => import("./PushPanel.tsx").then((m) => ({ default: m.PushPanel })));

/** Pushes need the app's service worker, the Push API, and an index that sends them. */
const pushPossible = () =>
  indexerUrl() !== null &&
  typeof navigator !== "undefined" &&
  "serviceWorker" in navigator &&
  typeof window !== "undefined" &&
  "PushManager" in window;

/** A bell, struck through when the sound is off (drawn inline: no icon font, no emoji font). */
function BellIcon({ off }: { off: boolean }) {
  return (
    <svg
      aria-hidden="true"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      {off && <path d="M3 3l18 18" />}
    </svg>
  );
}

/**
 * The header's two switches for "your turn" alerts: the sound (on by default, remembered on this
 * device) and system notifications, which the browser is asked for only from this button. With a
 * wallet connected and a game index that sends pushes, "Notify me" opens the push settings
 * (PushPanel): notifications even with the tab closed.
 */
export function AlertToggles() {
  const sound = useSoundOn();
  const permission = useNotifyPermission();
  const [asking, setAsking] = useState(false);
  const [panel, setPanel] = useState(false);
  const closePanel = useCallback(() => setPanel(false), []);
  const { address } = useConnection();
  const pushable = address !== undefined && pushPossible();
  useEffect(() => unlockAudioOnFirstClick(), []);

  return (
    <div className="alert-toggles" role="group" aria-label="Turn alerts">
      <button
        type="button"
        className="button button--quiet alert-toggles__sound"
        aria-pressed={sound}
        title={sound ? "A short sound plays when it is your turn" : "Turn sounds are off"}
        onClick={() => setSoundOn(!sound)}
      >
        <BellIcon off={!sound} />
        <span className="sr-only">Turn sound</span>
      </button>
      {pushable && (
        <button
          type="button"
          className="button button--quiet alert-toggles__notify"
          title="Notifications from the hall, even with the tab closed"
          onClick={() => setPanel(true)}
        >
          Notify me
        </button>
      )}
      {panel && address && (
        <Suspense fallback={null}>
          <PushPanel address={address} onClose={closePanel} />
        </Suspense>
      )}
      {!pushable && permission === "default" && (
        <button
          type="button"
          className="button button--quiet alert-toggles__notify"
          disabled={asking}
          title="A notification when it is your turn and this tab is not in view"
          onClick={() => {
            setAsking(true);
            void askNotifyPermission().finally(() => setAsking(false));
          }}
        >
          Notify me
        </button>
      )}
    </div>
  );
}
