// The built web app served as a static host serves it in production: brotli or gzip when the
// browser takes it, hashed assets cached for good, index.html for every client-side route. For the
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

export async function serveStatic(
  dir: string,
  host = "127.0.0.1",
): Promise<{ url: string; close(): Promise<void> }> {
  const cache = new Map<string, { br: Buffer; gzip: Buffer }>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) {
      file = join(dir, "index.html");
    }
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
    res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : out);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
