import { TABLE_KEYS } from "../keyboard.ts";
import { Modal } from "../Modal.tsx";

/** The "?" dialog: every table key. Escape, "?" or the button closes it and focus goes back. */
export function KeyHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <Modal labelledBy="keyhelp-title" onClose={onClose} closeKeys={["Escape", "?"]}>
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
      <button type="button" className="button" onClick={onClose}>
        Close
      </button>
    </Modal>
  );
}
