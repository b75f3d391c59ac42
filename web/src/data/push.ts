// This browser's Web Push subscription at the game index (indexer/src/api/push/): loaded only when
// the player opens "Notify me", so none of it is in the first load. The index keeps the browser's
// push endpoint and keys with the connected address and the kinds picked, and only with proof that
// this browser speaks for the address: the player's session key signs it (no wallet prompt) or,
// without one, the wallet signs one short message (core/notify/pushProof.ts), so nobody can
// subscribe another's address to hear, or crowd out, that player's pushes.
import type { Address, Hex } from "viem";
import type { PushKind } from "@dicehall/core/notify/pushKinds.ts";
import { pushProofMessage } from "@dicehall/core/notify/pushProof.ts";
import { indexerUrl } from "./indexerStatus.ts";

export interface PushOffer {
  publicKey: string;
  kinds: PushKind[];
  /** The index the proof names: its hall and chain. */
  hall: Address;
  chainId: number;
}

/** Signs the proof's text (EIP-191): the session key's signMessage, or the wallet's. */
export type SignProof = (message: string) => Promise<Hex>;

/** How long a proof counts: long enough for a wallet's prompt, and no longer. */
const PROOF_SECONDS = 10 * 60;

export interface PushState {
  /** The address this browser's pushes are for, lower-case; null when it has none. */
  address: string | null;
  kinds: PushKind[];
}

export class PushError extends Error {}

/** Whether this browser can receive pushes at all (a service worker and the Push API). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== "undefined" &&
    "serviceWorker" in navigator &&
    typeof window !== "undefined" &&
    "PushManager" in window &&
    typeof Notification !== "undefined"
  );
}

async function call<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const base = indexerUrl();
  if (!base) throw new PushError("This hall has no game index, which is what sends notifications.");
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      ...init,
      headers: { "content-type": "application/json" },
    });
  } catch {
    throw new PushError("The game index did not answer. Try again in a moment.");
  }
  const body = (await response.json().catch(() => null)) as T;
  return { status: response.status, body };
}

/** What the index offers: its VAPID key and the kinds; null when it sends no pushes. */
export async function pushOffer(): Promise<PushOffer | null> {
  const { status, body } = await call<PushOffer>("/api/push/key");
  if (status === 404) return null;
  if (status !== 200) throw new PushError("The game index could not say whether it notifies.");
  return body;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const ready = navigator.serviceWorker.ready;
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new PushError("The app's service worker is not running yet.")), 10_000),
  );
  return Promise.race([ready, timeout]);
}

/** This browser's subscription as the index has it. */
export async function pushState(): Promise<PushState> {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription) return { address: null, kinds: [] };
  const { status, body } = await call<{ address: string; kinds: PushKind[] }>(
    `/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`,
  );
  if (status !== 200) return { address: null, kinds: [] };
  return body;
}

/**
 * Turns pushes on (or changes the kinds) for `address`: the browser's permission first (from the
 * click that called this), then its subscription with the index's key, then the proof `sign`
 * makes, then the index stores it.
 */
export async function subscribePush(
  offer: PushOffer,
  address: Address,
  kinds: PushKind[],
  sign: SignProof,
): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new PushError(
      permission === "denied"
        ? "Notifications are blocked for this site: allow them in your browser's site settings."
        : "Notifications were not allowed.",
    );
  }
  const manager = (await registration()).pushManager;
  let subscription = await manager.getSubscription();
  if (!subscription) {
    try {
      subscription = await manager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: offer.publicKey,
      });
    } catch (error) {
      throw new PushError(
        `This browser's push service refused the subscription (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }
  const json = subscription.toJSON();
  const expires = Math.floor(Date.now() / 1000) + PROOF_SECONDS;
  let signature: Hex;
  try {
    signature = await sign(
      pushProofMessage({
        hall: offer.hall,
        chainId: offer.chainId,
        action: "subscribe",
        address,
        endpoint: json.endpoint ?? subscription.endpoint,
        kinds,
        expires,
      }),
    );
  } catch {
    throw new PushError("Notifications were not turned on: the message was not signed.");
  }
  const { status, body } = await call<{ address: string; kinds: PushKind[]; error?: string }>(
    "/api/push/subscriptions",
    {
      method: "POST",
      body: JSON.stringify({ address, subscription: json, kinds, proof: { signature, expires } }),
    },
  );
  if (status === 429) throw new PushError("Too many changes: try again in a minute.");
  if (status !== 200)
    throw new PushError(body?.error ?? "The game index refused the subscription.");
  return { address: body.address, kinds: body.kinds };
}

/** Turns pushes off: the index deletes what it stored, and the browser drops the subscription. */
export async function unsubscribePush(): Promise<void> {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription) return;
  const { status } = await call("/api/push/subscriptions", {
    method: "DELETE",
    body: JSON.stringify({ endpoint: subscription.endpoint }),
  });
  if (status !== 200) throw new PushError("The game index could not delete the subscription.");
  await subscription.unsubscribe();
}
