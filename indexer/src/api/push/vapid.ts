import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import webpush from "web-push";
import type { VapidKeys } from "./notifier.ts";

/**
 * The notifier's VAPID keys (RFC 8292: they tell the push services that our pushes come from us).
 * Operators set PUSH_VAPID_PUBLIC_KEY, PUSH_VAPID_PRIVATE_KEY and PUSH_VAPID_SUBJECT (see
 * OPERATORS.md). On the local chain, without them, a pair is made once and kept in `localFile`
 * (indexer/.ponder/, git-ignored), so a browser's subscription outlives a restart of `npm run dev`.
 * Elsewhere, without them, there are no pushes (null).
 */
export function vapidKeys(
  env: Record<string, string | undefined>,
  local: boolean,
  localFile: string,
): VapidKeys | null {
  const subject = env.PUSH_VAPID_SUBJECT || "mailto:operator@dicehall.invalid";
  if (env.PUSH_VAPID_PUBLIC_KEY && env.PUSH_VAPID_PRIVATE_KEY) {
    return {
      publicKey: env.PUSH_VAPID_PUBLIC_KEY,
      privateKey: env.PUSH_VAPID_PRIVATE_KEY,
      subject,
    };
  }
  if (!local) return null;
  if (existsSync(localFile)) {
    const kept = JSON.parse(readFileSync(localFile, "utf8")) as Omit<VapidKeys, "subject">;
    return { ...kept, subject };
  }
  const made = webpush.generateVAPIDKeys();
  mkdirSync(dirname(localFile), { recursive: true });
  writeFileSync(localFile, JSON.stringify(made), { mode: 0o600 });
  return { ...made, subject };
}
