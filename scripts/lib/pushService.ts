// A push service of our own for the notifier's tests and its benchmark: an HTTPS server (a self-signed certificate
// made with openssl) that takes Web Push requests as a browser's push service would, checks their
// VAPID header (RFC 8292), and decrypts each payload (RFC 8291, aes128gcm) with the private key and
// auth secret of the subscription it was sent to, as only that browser could. An endpoint can be
// told to answer 404 or 410, as a push service does for a subscription the browser dropped, or 500,
// or to hang: take the request and never answer.
import { execFileSync } from "node:child_process";
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  createVerify,
  randomBytes,
  type ECDH,
} from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { Agent } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface Received {
  /** The endpoint's path ("/push/<name>"). */
  name: string;
  payload: unknown;
  /** Who signed the request (the VAPID `k`), verified. */
  vapidKey: string;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  at: number;
}

export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushEndpoint {
  url: string;
  /** An https.Agent that trusts this server's certificate (web-push's `agent`). */
  agent: Agent;
  /** This server's certificate (PEM), for a client that trusts it. */
  ca: Buffer;
  /** A browser's subscription at this service: its endpoint and the keys it made. */
  subscribe(name: string): TestSubscription;
  /** What the endpoint answers from now on (201 by default); "hang": nothing, ever. */
  answer(name: string, status: number | "hang"): void;
  /** Requests an endpoint has taken, answered or not. */
  requests(name: string): number;
  received: Received[];
  /** Requests that failed a check (a bad signature, an undecryptable payload). */
  rejected: string[];
  close(): Promise<void>;
}

const b64url = (buf: Buffer) => buf.toString("base64url");

function hmac(key: Buffer, data: Buffer): Buffer {
  return createHmac("sha256", key).update(data).digest();
}

/** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, decrypted by the user agent. */
export function decryptPush(body: Buffer, ua: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const asPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = ua.computeSecret(asPublic);
  const keyInfo = Buffer.concat([
    Buffer.from("WebPush: info\0"),
    ua.getPublicKey(),
    asPublic,
    Buffer.from([1]),
  ]);
  const ikm = hmac(hmac(authSecret, ecdhSecret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02 and then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`: an ES256 JWT for this origin, signed by k. */
function checkVapid(header: string | undefined, origin: string): string {
  const match = /^vapid t=([^,]+),\s*k=(.+)$/.exec(header ?? "");
  if (!match) throw new Error(`no VAPID header: ${header}`);
  const [, jwt, k] = match;
  const [head, claims, signature] = jwt.split(".");
  const body = JSON.parse(Buffer.from(claims, "base64url").toString()) as {
    aud: string;
    exp: number;
  };
  if (body.aud !== origin) throw new Error(`VAPID aud ${body.aud}, not ${origin}`);
  if (body.exp * 1000 < Date.now()) throw new Error("VAPID token expired");
  const raw = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: b64url(raw.subarray(1, 33)),
      y: b64url(raw.subarray(33, 65)),
    },
    format: "jwk",
  });
  const ok = createVerify("SHA256")
    .update(`${head}.${claims}`)
    .verify({ key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!ok) throw new Error("VAPID signature does not verify");
  return k;
}

/**
 * A self-signed certificate for 127.0.0.1, as PEM files in a temp folder: a push service's own.
 * A process that sends to it trusts it through NODE_EXTRA_CA_CERTS=<cert> (read at its start).
 */
export function pushServiceCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "push-endpoint-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { key, cert };
}

/**
 * Makes processes started from now on (an indexer, say) trust `cert`: NODE_EXTRA_CA_CERTS, read at a
 * process's start, names a bundle of it and whatever bundle the environment named already.
 */
export function trustInChildProcesses(cert: string): void {
  const bundle = join(dirname(cert), "extra-ca.pem");
  const existing = process.env.NODE_EXTRA_CA_CERTS;
  writeFileSync(
    bundle,
    (existing && existsSync(existing) ? readFileSync(existing, "utf8") + "\n" : "") +
      readFileSync(cert, "utf8"),
  );
  process.env.NODE_EXTRA_CA_CERTS = bundle;
}

export async function startPushEndpoint(
  files: { key: string; cert: string } = pushServiceCertificate(),
): Promise<PushEndpoint> {
  const key = readFileSync(files.key);
  const cert = readFileSync(files.cert);

  const browsers = new Map<string, { ua: ECDH; auth: Buffer }>();
  const answers = new Map<string, number | "hang">();
  const taken = new Map<string, number>();
  const received: Received[] = [];
  const rejected: string[] = [];
  let origin = "";

  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const name = (req.url ?? "").replace(/^\/push\//, "");
      const browser = browsers.get(name);
      taken.set(name, (taken.get(name) ?? 0) + 1);
      const status = answers.get(name) ?? 201;
      if (status === "hang") return;
      if (!browser || status >= 400) {
        res.writeHead(browser ? status : 404).end();
        return;
      }
      try {
        const vapidKey = checkVapid(req.headers.authorization, origin);
        if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
        const text = decryptPush(Buffer.concat(chunks), browser.ua, browser.auth).toString("utf8");
        received.push({
          name,
          payload: JSON.parse(text),
          vapidKey,
          ttl: req.headers.ttl as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          topic: req.headers.topic as string | undefined,
          at: Date.now(),
        });
        res.writeHead(201).end();
      } catch (error) {
        rejected.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `https://127.0.0.1:${port}`;
  const agent = new Agent({ ca: cert, keepAlive: true, maxSockets: 64 });

  return {
    url: origin,
    agent,
    ca: cert,
    subscribe(name) {
      const ua = createECDH("prime256v1");
      ua.generateKeys();
      const auth = randomBytes(16);
      browsers.set(name, { ua, auth });
      return {
        endpoint: `${origin}/push/${name}`,
        keys: { p256dh: b64url(ua.getPublicKey()), auth: b64url(auth) },
      };
    },
    answer(name, status) {
      answers.set(name, status);
    },
    requests: (name) => taken.get(name) ?? 0,
    received,
    rejected,
    async close() {
      agent.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
