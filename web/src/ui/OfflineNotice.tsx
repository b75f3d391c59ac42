import { useOnline } from "./pwa.ts";

/**
 * Shown while the browser has no network: the app opened from its cache can show pages, but no
 * table, lobby or score on screen is live, and no move can be sent, until the network is back.
 */
export function OfflineNotice() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="banner banner--warn offline-notice" role="status">
      <p>
        <strong>You are offline.</strong> Nothing shown here is live: tables, lobbies and scores may
        be out of date, and no move can be made until you are back online.
      </p>
    </div>
  );
}
