import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getAddress, isAddress, isHex, type Address, type Hex } from "viem";
import { PUSH_KINDS } from "@dicehall/core/notify/pushKinds.ts";
import { PUSH_PROOF_MAX_SECONDS, pushProofMessage } from "@dicehall/core/notify/pushProof.ts";
import type { Sql } from "../analysis/analyser.ts";
import { clientIp } from "../limits.ts";
import { checkEndpoint, EndpointRefused, type EndpointPolicy } from "./endpoint.ts";
import type { CheckProof } from "./proof.ts";
import {
  countRequest,
  deleteSubscription,
  parseKinds,
  parseSubscription,
  saveSubscription,
  subscriptionCount,
  subscriptionOf,
} from "./store.ts";

export interface PushLimits {
  /** Subscription changes one proven address may make a minute (its own browsers only). */
  perAddress: number;
  /** Push requests (proven or not) one IP may make a minute. */
  perIp: number;
  /** Push requests the index takes a minute from everyone. */
  overall: number;
  /** Subscriptions the index holds at most. */
  subscriptions: number;
}

export const DEFAULT_PUSH_LIMITS: PushLimits = {
  perAddress: 10,
  perIp: 30,
  overall: 1_200,
  subscriptions: 100_000,
};

export interface PushApi {
  read: Sql;
  write: Sql;
  /** The schema, quoted. */
  s: string;
  publicKey: string;
  /** The index the proofs name. */
  hall: Address;
  chainId: number;
  checkProof: CheckProof;
  endpoints: EndpointPolicy;
  limits?: PushLimits;
}

/** A request body larger than this is refused unread (413): a subscription with its proof is ~1 KB. */
export const PUSH_BODY_LIMIT = 8 * 1024;

/**
 * The app's side of the pushes: the VAPID public key a browser subscribes with, and the player's
 * subscriptions. Storing or changing one asks for proof that the sender speaks for the address
 * (core/notify/pushProof.ts, checked by proof.ts); reading or deleting one asks for its endpoint,
 * which only the browser holding it knows (the index never shows it). Limits count in the
 * database, per IP and overall before the proof is checked, per proven address after, so nobody
 * can spend another's. `push` resolves to null when this indexer sends no pushes: every route then
 * answers 404, which the app reads as "this index offers no notifications".
 */
export function pushRoutes(push: Promise<PushApi | null>): Hono {
  const app = new Hono();
  const off = { error: "this indexer sends no pushes" };
  const tooLarge = bodyLimit({
    maxSize: PUSH_BODY_LIMIT,
    onError: (c) => c.json({ error: `the body is over ${PUSH_BODY_LIMIT} bytes` }, 413),
  });

  /** Counts the request for its IP and for everyone; a 429 response when over either. */
  async function limited(c: Context, p: PushApi): Promise<Response | null> {
    const limits = p.limits ?? DEFAULT_PUSH_LIMITS;
    const [ip, all] = await countRequest(p.write, p.s, [`ip:${clientIp(c)}`, "all"], Date.now());
    if (ip > limits.perIp) {
      return c.json({ error: "too many requests from this address; try again in a minute" }, 429);
    }
    if (all > limits.overall) {
      return c.json({ error: "the index is taking no more changes this minute; try again" }, 429);
    }
    return null;
  }

  app.get("/api/push/key", async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    return c.json({ publicKey: p.publicKey, kinds: PUSH_KINDS, hall: p.hall, chainId: p.chainId });
  });

  app.get("/api/push/subscriptions", async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    const endpoint = c.req.query("endpoint");
    if (!endpoint || endpoint.length > 1024) {
      return c.json({ error: "name the subscription's endpoint" }, 400);
    }
    const found = await subscriptionOf(p.read, p.s, endpoint);
    if (!found) return c.json({ error: "no such subscription" }, 404);
    return c.json({ address: found.address, kinds: found.kinds });
  });

  app.post("/api/push/subscriptions", tooLarge, async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    const over = await limited(c, p);
    if (over) return over;
    const body = (await c.req.json().catch(() => null)) as {
      address?: unknown;
      subscription?: unknown;
      kinds?: unknown;
      proof?: { signature?: unknown; expires?: unknown };
    } | null;
    const address = body?.address;
    if (typeof address !== "string" || !isAddress(address, { strict: false })) {
      return c.json({ error: "address: not an address" }, 400);
    }
    const subscription = parseSubscription(body?.subscription);
    if (typeof subscription === "string") {
      return c.json({ error: `subscription: ${subscription}` }, 400);
    }
    const kinds = parseKinds(body?.kinds);
    if (!kinds) return c.json({ error: `kinds: each one of ${PUSH_KINDS.join(", ")}` }, 400);
    const { signature, expires } = body?.proof ?? {};
    if (
      typeof signature !== "string" ||
      !isHex(signature) ||
      signature.length > 4_000 ||
      typeof expires !== "number" ||
      !Number.isSafeInteger(expires)
    ) {
      return c.json({ error: "proof: sign the subscription with your session key or wallet" }, 401);
    }
    const now = Math.floor(Date.now() / 1000);
    if (expires < now) return c.json({ error: "proof: expired; sign again" }, 401);
    if (expires > now + PUSH_PROOF_MAX_SECONDS + 60) {
      return c.json({ error: `proof: may last ${PUSH_PROOF_MAX_SECONDS} s at most` }, 401);
    }
    const who = getAddress(address);
    const message = pushProofMessage({
      hall: p.hall,
      chainId: p.chainId,
      action: "subscribe",
      address: who,
      endpoint: subscription.endpoint,
      kinds,
      expires,
    });
    const signer = await p.checkProof(who, message, signature as Hex);
    if (!signer) {
      return c.json(
        { error: "proof: not signed by this account or its session key on this hall" },
        401,
      );
    }
    try {
      await checkEndpoint(subscription.endpoint, p.endpoints);
    } catch (error) {
      if (error instanceof EndpointRefused) {
        return c.json({ error: `subscription: ${error.message}` }, 400);
      }
      throw error;
    }
    const limits = p.limits ?? DEFAULT_PUSH_LIMITS;
    const [mine] = await countRequest(p.write, p.s, [`address:${who.toLowerCase()}`], Date.now());
    if (mine > limits.perAddress) {
      return c.json({ error: "too many changes for this account; try again in a minute" }, 429);
    }
    const existing = await subscriptionOf(p.read, p.s, subscription.endpoint);
    if (!existing && (await subscriptionCount(p.read, p.s)) >= limits.subscriptions) {
      return c.json({ error: "the index holds all the subscriptions it can" }, 503);
    }
    await saveSubscription(p.write, p.s, who, subscription, kinds, Date.now());
    return c.json({ address: who.toLowerCase(), kinds, signer });
  });

  app.delete("/api/push/subscriptions", tooLarge, async (c) => {
    const p = await push;
    if (!p) return c.json(off, 404);
    const over = await limited(c, p);
    if (over) return over;
    const body = (await c.req.json().catch(() => null)) as { endpoint?: unknown } | null;
    if (typeof body?.endpoint !== "string" || body.endpoint.length > 1024) {
      return c.json({ error: "name the subscription's endpoint" }, 400);
    }
    const n = await deleteSubscription(p.write, p.s, body.endpoint);
    return c.json({ deleted: n });
  });

  return app;
}
