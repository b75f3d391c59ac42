import assert from "node:assert/strict";
import { createECDH, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { Hono } from "hono";
import { network } from "hardhat";
import type { Address, Hex, PublicClient } from "viem";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { PUSH_KINDS, type PushKind } from "@dicehall/core/notify/pushKinds.ts";
import { pushProofMessage } from "@dicehall/core/notify/pushProof.ts";
import type { Sql } from "../indexer/src/api/analysis/analyser.ts";
import { request as httpsRequest } from "node:https";
import {
  EndpointRefused,
  guardedLookup,
  type EndpointPolicy,
} from "../indexer/src/api/push/endpoint.ts";
import { startPushEndpoint } from "../scripts/lib/pushService.ts";
import { proofChecker } from "../indexer/src/api/push/proof.ts";
import { pushRoutes, type PushApi, type PushLimits } from "../indexer/src/api/push/routes.ts";
import { createPushTables } from "../indexer/src/api/push/store.ts";
import { consentOf, hallFixture, send, type Hall } from "./helpers/hall.ts";

// The push routes (indexer/src/api/push/routes.ts) as an attacker meets them (issue 42), on a
// chain with the hall deployed (a session key is the hall's to vouch for) and the index's tables in
// PGlite. Each attack is a test: no proof, a wrong signer, evicting or locking out another's
// browsers, endpoints that are not push services, an oversized body, keys that are not keys. A
// refused request leaves the store as it was.

const connection = await network.create();
const S = `"push_abuse"`;
const PUSH_HOST = "push.example.com";

/** A browser's subscription keys: a real P-256 public key and a 16-byte secret. */
function browserKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
  };
}

describe("the push routes under attack", () => {
  let h: Hall;
  let db: PGlite;
  let sql: Sql;
  let app: Hono;
  let chainId: number;
  /** The addresses the test's resolver gives each name (the rest resolve nowhere). */
  const dns = new Map<string, string[]>([[PUSH_HOST, ["93.184.216.34"]]]);
  const limits: PushLimits = { perAddress: 10, perIp: 30, overall: 1_000, subscriptions: 1_000 };
  const endpoints: EndpointPolicy = {
    // An operator who listed more than push services: the addresses must still be refused.
    hosts: [PUSH_HOST, "rebind.example.com", "10.1.2.3", "169.254.169.254", "127.0.0.1", "::1"],
    local: false,
    lookup: async (host) => dns.get(host) ?? [],
  };

  before(async () => {
    h = await connection.networkHelpers.loadFixture(hallFixture);
    chainId = await h.publicClient.getChainId();
    db = new PGlite();
    sql = db as unknown as Sql;
    await db.exec(`create schema ${S}`);
    await createPushTables(sql, S);
    const api: PushApi = {
      read: sql,
      write: sql,
      s: S,
      publicKey: "test",
      hall: h.hall.address,
      chainId,
      checkProof: proofChecker(h.publicClient as unknown as PublicClient, h.hall.address),
      endpoints,
      limits,
    };
    app = new Hono().route("/", pushRoutes(Promise.resolve(api)));
  });

  after(async () => {
    await db?.close();
  });

  let ipCounter = 0;
  /** A request from its own IP unless one is named (the per-IP limit is tested on its own). */
  const request = (method: string, body: unknown, ip = `198.51.100.${++ipCounter % 250}`) =>
    app.request(
      "/api/push/subscriptions",
      {
        method,
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      },
      { incoming: { socket: { remoteAddress: ip } } },
    );

  const stored = async () =>
    (
      await sql.query<{ endpoint: string; address: string; kinds: string[] }>(
        `select endpoint, address, kinds from ${S}.push_subscription order by endpoint`,
      )
    ).rows;

  let browsers = 0;
  const newEndpoint = (host = PUSH_HOST) => `https://${host}/fcm/send/browser-${++browsers}`;

  /** A subscription request for `address`, signed by `signer` (its wallet or a session key). */
  async function signed(
    address: Address,
    signer: WalletClient | null,
    o: { endpoint?: string; kinds?: PushKind[]; expires?: number; keys?: object } = {},
  ) {
    const endpoint = o.endpoint ?? newEndpoint();
    const kinds = o.kinds ?? [...PUSH_KINDS];
    const expires = o.expires ?? Math.floor(Date.now() / 1000) + 300;
    const message = pushProofMessage({
      hall: h.hall.address,
      chainId,
      action: "subscribe",
      address,
      endpoint,
      kinds,
      expires,
    });
    const signature: Hex = signer
      ? await signer.signMessage({ account: signer.account, message })
      : "0x";
    return {
      address,
      subscription: { endpoint, keys: o.keys ?? browserKeys() },
      kinds,
      proof: { signature, expires },
    };
  }

  it("refuses a subscription without proof, or signed by someone else, and stores nothing", async () => {
    const victim = h.alice.account.address;
    const before = await stored();
    const none = await signed(victim, null);
    const { proof: _, ...unproven } = none;
    let res = await request("POST", unproven);
    assert.equal(res.status, 401);
    res = await request("POST", await signed(victim, h.stranger));
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { error: string }).error, /not signed by this account/);
    // A proof made for another endpoint, or for other kinds, proves nothing for this one.
    const good = await signed(victim, h.alice);
    res = await request("POST", {
      ...good,
      subscription: { ...good.subscription, endpoint: newEndpoint() },
    });
    assert.equal(res.status, 401);
    res = await request("POST", { ...good, kinds: ["turn"] });
    assert.equal(res.status, 401);
    // Nor does one past its expiry.
    res = await request(
      "POST",
      await signed(victim, h.alice, { expires: Math.floor(Date.now() / 1000) - 1 }),
    );
    assert.equal(res.status, 401);
    assert.deepEqual(await stored(), before);
  });

  it("stores a subscription proven by the wallet, or by the player's session key with no wallet", async () => {
    const res = await request("POST", await signed(h.alice.account.address, h.alice));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { signer: string }).signer, "wallet");

    // Bob opens a session for a key: the key's signature now speaks for bob, as the hall says.
    const key = h.wallets[10];
    const grant = {
      key: key.account.address,
      expiresAt: BigInt(Math.floor(Date.now() / 1000)) + 3600n,
      feeAllowance: 0n,
      keyGas: 0n,
    };
    const bob = h.bob.account.address;
    await send(
      h,
      h.hall.write.openSession([grant, await consentOf(h, key, h.bob, grant)], {
        account: h.bob.account,
      }),
    );
    const byKey = await request("POST", await signed(bob, key));
    assert.equal(byKey.status, 200);
    assert.equal(((await byKey.json()) as { signer: string }).signer, "key");
    // The same key speaks for nobody else.
    const other = await request("POST", await signed(h.carol.account.address, key));
    assert.equal(other.status, 401);
    const rows = await stored();
    assert.deepEqual(
      rows.map((r) => r.address).sort(),
      [h.alice.account.address, bob].map((a) => a.toLowerCase()).sort(),
    );
  });

  it("lets no stranger evict a player's browsers or lock the player out", async () => {
    const victim = h.carol.account.address;
    const mine = await signed(victim, h.carol);
    assert.equal((await request("POST", mine)).status, 200);
    // A stranger floods the victim's address from many IPs: with no proof, or with their own.
    for (let i = 0; i < 20; i++) {
      const res = await request("POST", await signed(victim, i % 2 ? h.stranger : null));
      assert.equal(res.status, 401);
    }
    // The stranger's own proven browsers stay the stranger's and count against the stranger only.
    for (let i = 0; i < 12; i++)
      await request("POST", await signed(h.stranger.account.address, h.stranger));
    const rows = (await stored()).filter((r) => r.address === victim.toLowerCase());
    assert.deepEqual(
      rows.map((r) => r.endpoint),
      [mine.subscription.endpoint],
    );
    // The victim can still change their own subscription at once.
    const changed = await request(
      "POST",
      await signed(victim, h.carol, { endpoint: mine.subscription.endpoint, kinds: ["turn"] }),
    );
    assert.equal(changed.status, 200);
    assert.deepEqual(
      (await stored()).find((r) => r.endpoint === mine.subscription.endpoint)?.kinds,
      ["turn"],
    );
  });

  it("limits requests per IP, counted in the database", async () => {
    const ip = "203.0.113.77";
    const statuses: number[] = [];
    for (let i = 0; i < limits.perIp + 2; i++) {
      statuses.push((await request("POST", { address: "0x12" }, ip)).status);
    }
    assert.deepEqual(statuses.slice(0, limits.perIp), Array(limits.perIp).fill(400));
    assert.deepEqual(statuses.slice(limits.perIp), [429, 429]);
    const { rows } = await sql.query<{ n: number }>(
      `select n from ${S}.push_limit where bucket = $1`,
      [`ip:${ip}`],
    );
    assert.equal(rows[0].n, limits.perIp + 2);
  });

  it("refuses endpoints that are not public push services: loopback, private, link-local, metadata, a name resolving to loopback", async () => {
    const before = await stored();
    dns.set("rebind.example.com", ["93.184.216.35", "127.0.0.1"]);
    for (const endpoint of [
      "https://127.0.0.1/push/x",
      "https://10.1.2.3/push/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/push/x",
      "https://[::ffff:127.0.0.1]/push/x",
      "https://rebind.example.com/push/x",
      "https://localhost/push/x",
      `http://${PUSH_HOST}/push/x`,
      `https://${PUSH_HOST}:8443/push/x`,
      "https://not-listed.example.org/push/x",
    ]) {
      const res = await request(
        "POST",
        await signed(h.alice.account.address, h.alice, { endpoint }),
      );
      assert.equal(res.status, 400, endpoint);
      assert.match(((await res.json()) as { error: string }).error, /^subscription: /, endpoint);
    }
    assert.deepEqual(await stored(), before);
  });

  it("refuses an oversized body (413) and keys that are not keys, and stores nothing", async () => {
    const before = await stored();
    const big = await signed(h.alice.account.address, h.alice);
    const res = await request("POST", JSON.stringify({ ...big, padding: "x".repeat(1_000_000) }));
    assert.equal(res.status, 413);
    // 65 bytes that start like a point but are not on P-256.
    const notOnCurve = Buffer.alloc(65, 7);
    notOnCurve[0] = 4;
    for (const keys of [
      { p256dh: notOnCurve.toString("base64url"), auth: randomBytes(16).toString("base64url") },
      { p256dh: browserKeys().p256dh, auth: randomBytes(15).toString("base64url") },
      { p256dh: "AAAA", auth: randomBytes(16).toString("base64url") },
    ]) {
      const bad = await request("POST", await signed(h.alice.account.address, h.alice, { keys }));
      assert.equal(bad.status, 400, JSON.stringify(keys));
      assert.match(((await bad.json()) as { error: string }).error, /keys\./);
    }
    assert.deepEqual(await stored(), before);
  });

  it("refuses at send a name that resolves to loopback by then (DNS rebinding), in the connection's own lookup", async () => {
    const service = await startPushEndpoint();
    try {
      const port = new URL(service.url).port;
      service.subscribe("rebound");
      const post = (policy: Parameters<typeof guardedLookup>[0]) =>
        new Promise<number>((resolve, reject) => {
          const req = httpsRequest(
            `https://rebind.example.com:${port}/push/rebound`,
            {
              method: "POST",
              ca: service.ca,
              checkServerIdentity: () => undefined,
              lookup: guardedLookup(policy),
              agent: false,
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          req.end();
        });
      // Public when the browser subscribed; loopback now.
      const rebound = async () => ["127.0.0.1"];
      await assert.rejects(post({ local: false, lookup: rebound }), EndpointRefused);
      assert.equal(service.requests("rebound"), 0, "nothing reached the address");
      // The same request where loopback is allowed (the local chain) does reach it: the lookup
      // above, not something else, refused it.
      await post({ local: true, lookup: rebound }).catch(() => 0);
      assert.equal(service.requests("rebound"), 1);
    } finally {
      await service.close();
    }
  });
});
