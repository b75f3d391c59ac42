/**
 * A push's payload as the service worker reads it: the notifier (indexer/src/api/push/) sends
 * core/notify/'s `PushMessage` as JSON. Anything else is dropped rather than shown half-read.
 */
export interface ShownPush {
  title: string;
  body: string;
  /** The app's path the notification opens ("/games/12"). */
  url: string;
  /** One notification per table and kind: a newer one replaces it. */
  tag: string;
}

export function parsePush(text: string | null): ShownPush | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { title, body, url, tag } = value as Record<string, unknown>;
  if (typeof title !== "string" || typeof body !== "string" || typeof url !== "string") return null;
  if (!url.startsWith("/")) return null;
  return { title, body, url, tag: typeof tag === "string" ? tag : url };
}
