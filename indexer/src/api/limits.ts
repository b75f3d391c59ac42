import type { Context, MiddlewareHandler } from "hono";
import { isIP } from "node:net";

/**
 * The index's read routes, per client IP (issue 42: 50 clients cycling the most expensive request
 * took the API's cores, and the indexing with them). A fixed window a minute, in this process's
 * memory: a read costs this process, so this process counts it. The memory is bounded: at most
 * MAX_TRACKED clients a window; past that, the clients not yet seen share one bucket, so a flood
 * of addresses spends its own share and not the known clients'. The push routes' limits, which must
 * hold across processes, count in the database instead (push/routes.ts).
 */

export const MAX_TRACKED = 20_000;

/**
 * The client's address: the socket's peer (@hono/node-server's `incoming`), or with
 * INDEXER_TRUST_PROXY=1 the address a reverse proxy in front of the index put last in
 * X-Forwarded-For. An IPv6 client is counted by its /64, which one customer usually holds.
 */
export function clientIp(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  let ip = env?.incoming?.socket?.remoteAddress ?? "unknown";
  if (process.env.INDEXER_TRUST_PROXY === "1") {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded && isIP(forwarded)) ip = forwarded;
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) === 6) {
    const groups = ip.split("::")[0].split(":");
    return `${groups.slice(0, 4).join(":")}::/64`;
  }
  return ip;
}

export interface RateLimit {
  /** Requests a client may make a minute; 0: no limit. */
  perMinute: number;
  /** What a request costs (1 by default): an uncached review, say, costs more. */
  cost?: (c: Context) => number;
  /** The clock (tests). */
  now?: () => number;
}

export function rateLimit(options: RateLimit): MiddlewareHandler {
  const now = options.now ?? Date.now;
  let window = 0;
  const spent = new Map<string, number>();
  return async (c, next) => {
    if (options.perMinute <= 0) return next();
    const minute = Math.floor(now() / 60_000);
    if (minute !== window) {
      window = minute;
      spent.clear();
    }
    const ip = clientIp(c);
    const bucket = spent.has(ip) || spent.size < MAX_TRACKED ? ip : "overflow";
    const used = (spent.get(bucket) ?? 0) + (options.cost?.(c) ?? 1);
    spent.set(bucket, used);
    if (used > options.perMinute) {
      c.header("Retry-After", String(60 - Math.floor((now() / 1000) % 60)));
      return c.json({ error: "too many requests from this address; try again in a minute" }, 429);
    }
    return next();
  };
}
