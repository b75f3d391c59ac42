import { useEffect, useRef } from "react";
import { TABLE_KEYS } from "../keyboard.ts";

/** The "?" dialog: every table key. Escape or the button closes it and focus goes back. */
export function KeyHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" || event.key === "?") {
        event.preventDefault();
        event.stopPropagation();
        onClose();
      } else if (event.key === "Tab") {
        // One focusable control: keep focus inside the dialog.
        event.preventDefault();
        closeRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      previous?.focus?.();
    };
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="keyhelp-title"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="keyhelp-title">Keys at the table</h2>
        <dl className="keys">
          {TABLE_KEYS.map(({ keys, action }) => (
            <div key={keys} className="keys__row">
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{action}</dd>
            </div>
          ))}
        </dl>
        <button ref={closeRef} type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
