// The built web app served as a static host serves it in production: brotli or gzip when the
// browser takes it, hashed assets cached for good, each page its prerendered file and the build's
// `_redirects` for the rest (a game's page, the 404). For the
// phone benchmark (a dev server's or `vite preview`'s uncompressed answers are not what a phone
// downloads).
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".wasm": "application/wasm",
  ".map": "application/json",
};
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".svg", ".json", ".webmanifest"]);

interface Rewrite {
  from: RegExp;
  to: string;
  status: number;
}

/**
 * The build's `_redirects` (Netlify's and Cloudflare Pages' format, written by the prerender:
 * `/games/:id /games/_id.html 200`), each line a path pattern (":name" one segment, "*" the rest),
 * the file that answers it and the status.
 */
export function readRedirects(dir: string): Rewrite[] {
  const file = join(dir, "_redirects");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length >= 2 && !parts[0].startsWith("#"))
    .map(([from, to, status]) => ({
      from: new RegExp(
        `^${from
          .split("/")
          .map((s) =>
            s === "*"
              ? ".*"
              : s.startsWith(":")
                ? "[^/]+"
                : s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
          )
          .join("/")}/?$`,
        "i",
      ),
      to,
      status: Number(status ?? 200),
    }));
}

/**
 * What answers a path, as a static host answers it: the file itself, else the path's own page
 * (`/leaderboard` is leaderboard.html), else the first rewrite that matches, else index.html.
 * The build's preview server answers pages with this too (web/prerender.ts).
 */
export function resolvePage(
  dir: string,
  path: string,
  rules: Rewrite[],
): { file: string; status: number } {
  const isFile = (f: string) => f.startsWith(dir) && existsSync(f) && !statSync(f).isDirectory();
  const own = normalize(join(dir, path));
  if (isFile(own)) return { file: own, status: 200 };
  const page = normalize(join(dir, `${path.replace(/\/+$/, "") || "/index"}.html`));
  if (isFile(page)) return { file: page, status: 200 };
  // A rewrite to a file the build did not write is passed over, as for a path with no rewrite.
  const rule = rules.find((r) => r.from.test(path) && isFile(join(dir, r.to)));
  if (rule) return { file: join(dir, rule.to), status: rule.status };
  return { file: join(dir, "index.html"), status: 200 };
}

export async function serveStatic(
  dir: string,
  host = "127.0.0.1",
): Promise<{ url: string; close(): Promise<void> }> {
  const cache = new Map<string, { br: Buffer; gzip: Buffer }>();
  const rules = readRedirects(dir);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const { file, status } = resolvePage(dir, path, rules);
    const ext = extname(file);
    const body = readFileSync(file);
    const headers: Record<string, string> = {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": path.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : "no-cache",
      vary: "accept-encoding",
    };
    const accept = String(req.headers["accept-encoding"] ?? "");
    let out: Buffer = body;
    if (COMPRESSIBLE.has(ext)) {
      let packed = cache.get(file);
      if (!packed) {
        packed = {
          br: brotliCompressSync(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          }),
          gzip: gzipSync(body, { level: 9 }),
        };
        cache.set(file, packed);
      }
      if (/\bbr\b/.test(accept)) {
        out = packed.br;
        headers["content-encoding"] = "br";
      } else if (/\bgzip\b/.test(accept)) {
        out = packed.gzip;
        headers["content-encoding"] = "gzip";
      }
    }
    headers["content-length"] = String(out.length);
    res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : out);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
