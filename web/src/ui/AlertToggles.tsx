import { useEffect, useState } from "react";
import {
  askNotifyPermission,
  setSoundOn,
  unlockAudioOnFirstClick,
  useNotifyPermission,
  useSoundOn,
} from "./alerts.ts";

/**
 * The header's two switches for "your turn" alerts: the sound (on by default, remembered on this
 * device) and system notifications, which the browser is asked for only from this button.
 */
export function AlertToggles() {
  const sound = useSoundOn();
  const permission = useNotifyPermission();
  const [asking, setAsking] = useState(false);
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
        <span aria-hidden="true">{sound ? "🔔" : "🔕"}</span>
        <span className="sr-only">Turn sound</span>
      </button>
      {permission === "default" && (
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
      {permission === "granted" && (
        <span className="sr-only" role="status">
          Notifications on
        </span>
      )}
    </div>
  );
}
