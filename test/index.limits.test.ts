import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { MAX_TRACKED, rateLimit } from "../indexer/src/api/limits.ts";

// The index's per-IP limit on every route (indexer/src/api/limits.ts): a client over its share
// gets 429 and the others do not; a minute later it may ask again; a flood of new addresses
// spends one shared share, not the memory of the process nor the known clients' shares.

function limitedApp(perMinute: number, clock: { now: number }) {
  const app = new Hono();
  app.use(
    "/api/*",
    rateLimit({
      perMinute,
      now: () => clock.now,
      cost: (c) => (c.req.path.endsWith("/analysis") ? 5 : 1),
    }),
  );
  app.get("/api/status", (c) => c.json({ ok: true }));
  app.get("/api/games/:id/analysis", (c) => c.json({ ok: true }));
  const get = (path: string, ip: string) =>
    app.request(path, {}, { incoming: { socket: { remoteAddress: ip } } });
  return get;
}

describe("the index's per-IP limit", () => {
  it("answers 429 past a client's share, to that client only, until the next minute", async () => {
    const clock = { now: 60_000 * 1000 };
    const get = limitedApp(10, clock);
    for (let i = 0; i < 10; i++) assert.equal((await get("/api/status", "192.0.2.1")).status, 200);
    const over = await get("/api/status", "192.0.2.1");
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) > 0);
    assert.equal((await get("/api/status", "192.0.2.2")).status, 200);
    // IPv4 in IPv6 clothing is the same client.
    assert.equal((await get("/api/status", "::ffff:192.0.2.1")).status, 429);
    clock.now += 60_000;
    assert.equal((await get("/api/status", "192.0.2.1")).status, 200);
  });

  it("counts an analysis as five reads, and an IPv6 client by its /64", async () => {
    const clock = { now: 0 };
    const get = limitedApp(10, clock);
    assert.equal((await get("/api/games/1/analysis", "2001:db8:1:2::1")).status, 200);
    assert.equal((await get("/api/games/0001/analysis", "2001:db8:1:2::ffff")).status, 200);
    assert.equal((await get("/api/status", "2001:db8:1:2:3:4:5:6")).status, 429);
    assert.equal((await get("/api/status", "2001:db8:1:3::1")).status, 200);
  });

  it("keeps at most MAX_TRACKED clients a minute; the rest share one share", async () => {
    const clock = { now: 0 };
    const get = limitedApp(3, clock);
    const ip = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    for (let n = 0; n < MAX_TRACKED; n++) await get("/api/status", ip(n));
    // New addresses past the bound: three get through between them, then none.
    const statuses: number[] = [];
    for (let n = MAX_TRACKED; n < MAX_TRACKED + 5; n++) {
      statuses.push((await get("/api/status", ip(n))).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    // A client already known still has its own share.
    assert.equal((await get("/api/status", ip(7))).status, 200);
  });
});
