// Builds the web app for production and prints what a first visit downloads: the entry chunk and
// every chunk it imports statically (gzip), then what each lazily loaded page adds on top.
// Target: first-load JavaScript <= 250 KB gzip. `--no-build` measures web/dist as it is.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const ROOT = join(import.meta.dirname, "..");
const WEB = join(ROOT, "web");
const DIST = join(WEB, "dist");
const TARGET_KB = 250;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

if (!process.argv.includes("--no-build")) {
  console.log("bench-bundle: building web/ (vite build)…");
  await build({ root: WEB, configFile: join(WEB, "vite.config.ts"), logLevel: "warn" });
}

const manifest = JSON.parse(readFileSync(join(DIST, ".vite/manifest.json"), "utf8")) as Manifest;
const sizes = new Map<string, { raw: number; gzip: number }>();
function size(file: string) {
  let s = sizes.get(file);
  if (!s) {
    const bytes = readFileSync(join(DIST, file));
    s = { raw: statSync(join(DIST, file)).size, gzip: gzipSync(bytes, { level: 9 }).length };
    sizes.set(file, s);
  }
  return s;
}

/** A chunk key and everything it imports statically, depth first. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error("bench-bundle: no entry chunk in the manifest");
const firstLoad = closure(entryKey);

const kb = (n: number) => (n / 1024).toFixed(1).padStart(8);
const label = (key: string) => manifest[key].src ?? manifest[key].name ?? manifest[key].file;

console.log("\nFirst load (entry + static imports)");
console.log(`${"chunk".padEnd(58)} ${"raw KB".padStart(8)} ${"gzip KB".padStart(8)}`);
let rawTotal = 0;
let gzipTotal = 0;
const rows = [...firstLoad]
  .map((key) => ({ key, ...size(manifest[key].file) }))
  .sort((a, b) => b.gzip - a.gzip);
for (const row of rows) {
  rawTotal += row.raw;
  gzipTotal += row.gzip;
  console.log(`${manifest[row.key].file.padEnd(58)} ${kb(row.raw)} ${kb(row.gzip)}`);
}
const css = [...new Set([...firstLoad].flatMap((k) => manifest[k].css ?? []))];
const cssGzip = css.reduce((sum, file) => sum + size(file).gzip, 0);
console.log(`${"total JavaScript".padEnd(58)} ${kb(rawTotal)} ${kb(gzipTotal)}`);
console.log(`${"CSS".padEnd(58)} ${"".padStart(8)} ${kb(cssGzip)}`);

console.log("\nLoaded later (each lazy page: what it adds to the first load)");
const lazy = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry);
for (const key of lazy.sort()) {
  const extra = [...closure(key)].filter((k) => !firstLoad.has(k));
  const gzip = extra.reduce((sum, k) => sum + size(manifest[k].file).gzip, 0);
  console.log(`${label(key).padEnd(58)} ${"".padStart(8)} ${kb(gzip)}`);
}

const ok = gzipTotal / 1024 <= TARGET_KB;
console.log(
  `\nfirst-load JavaScript: ${(gzipTotal / 1024).toFixed(1)} KB gzip (target <= ${TARGET_KB} KB): ${ok ? "OK" : "OVER"}`,
);
if (!ok) process.exitCode = 1;
