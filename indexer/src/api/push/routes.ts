import { Hono } from "hono";
import { isAddress } from "viem";
import { PUSH_KINDS } from "@dicehall/core/notify/pushKinds.ts";
import type { Sql } from "../analysis/analyser.ts";
import {
  deleteSubscription,
  parseKinds,
  parseSubscription,
  saveSubscription,
  subscriptionOf,
} from "./store.ts";

export interface PushApi {
  read: Sql;
  write: Sql;
  /** The schema, quoted. */
  s: string;
  publicKey: string;
}

/** Subscription changes one address may make a minute. */
const CHANGES_PER_MINUTE = 10;

/**
 * The app's side of the pushes: the VAPID public key a browser subscribes with, and the player's
 * subscriptions (made, read, changed and deleted by the browser that holds them: its endpoint is
 * the handle). `push` resolves to null when this indexer sends no pushes: every route then
 * answers 404, which the app reads as "this index offers no notifications".
 */
export function pushRoutes(push: Promise<PushApi | null>): Hono {
  const app = new Hono();
  const changes = new Map<string, number[]>();
  const limited = (address: string) => {
    const now = Date.now();
    const times = (changes.get(address) ?? []).filter((t) => now - t < 60_000);
    const over = times.length >= CHANGES_PER_MINUTE;
    if (!over) times.push(now);
    changes.set(address, times);
    return over;
  };
  const off = { error: "this indexer sends no pushes" };

  app.get("/api/push/key", async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    return c.json({ publicKey: p.publicKey, kinds: PUSH_KINDS });
  });

  app.get("/api/push/subscriptions", async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    const endpoint = c.req.query("endpoint");
    if (!endpoint) return c.json({ error: "name the subscription's endpoint" }, 400);
    const found = await subscriptionOf(p.read, p.s, endpoint);
    if (!found) return c.json({ error: "no such subscription" }, 404);
    return c.json({ address: found.address, kinds: found.kinds });
  });

  app.post("/api/push/subscriptions", async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    const body = (await c.req.json().catch(() => null)) as {
      address?: unknown;
      subscription?: unknown;
      kinds?: unknown;
    } | null;
    const address = body?.address;
    if (typeof address !== "string" || !isAddress(address, { strict: false })) {
      return c.json({ error: "address: not an address" }, 400);
    }
    const subscription = parseSubscription(body?.subscription);
    if (!subscription) return c.json({ error: "subscription: not a push subscription" }, 400);
    const kinds = parseKinds(body?.kinds);
    if (!kinds) return c.json({ error: `kinds: each one of ${PUSH_KINDS.join(", ")}` }, 400);
    if (limited(address.toLowerCase())) {
      return c.json({ error: "too many changes for this address; try again in a minute" }, 429);
    }
    await saveSubscription(p.write, p.s, address, subscription, kinds, Date.now());
    return c.json({ address: address.toLowerCase(), kinds });
  });

  app.delete("/api/push/subscriptions", async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    const body = (await c.req.json().catch(() => null)) as { endpoint?: unknown } | null;
    if (typeof body?.endpoint !== "string") {
      return c.json({ error: "name the subscription's endpoint" }, 400);
    }
    const n = await deleteSubscription(p.write, p.s, body.endpoint);
    return c.json({ deleted: n });
  });

  return app;
}
