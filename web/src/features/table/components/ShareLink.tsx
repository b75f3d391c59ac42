import { useState } from "react";

export function ShareLink({ gameId, highlight }: { gameId: bigint; highlight: boolean }) {
  const url = `${window.location.origin}/games/${gameId}`;
  const [copied, setCopied] = useState(false);
  return (
    <div className={`share${highlight ? " share--new" : ""}`}>
      {highlight && (
        <p className="share__title">Your table is open. Send this link to the players you want:</p>
      )}
      <div className="share__row">
        <label className="sr-only" htmlFor="share-url">
          Link to this table
        </label>
        <input id="share-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(url)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          {copied ? "Copied" : "Copy link"}
        </button>
      </div>
    </div>
  );
}
