// Draws the app's icons (web/public/icons/): the favicon's die as PNGs at the sizes a web app
// manifest asks for, one "any" icon with transparent corners and one "maskable" icon whose die sits
// inside the 80 % safe circle on a full-bleed background. Run again after changing the drawing;
// the PNGs are committed. `npx tsx scripts/make-icons.ts`
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";

const OUT = join(import.meta.dirname, "..", "web", "public", "icons");
const FELT = [0x1d, 0x4d, 0x3a] as const; // the theme colour (index.html's theme-color)
const IVORY = [0xfb, 0xf8, 0xef] as const;

type Rgba = [number, number, number, number];

/**
 * Pixel (x, y) of the die drawn in the unit square, sampled 4×4 for smooth edges: how many samples
 * fall on the die, on a pip, on its border, out of how many.
 */
function die(x: number, y: number, size: number, inset: number): Rgba {
  let cover = 0;
  let pip = 0;
  let border = 0;
  const n = 4;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const u = (x + (i + 0.5) / n) / size;
      const v = (y + (j + 0.5) / n) / size;
      const a = inset;
      const b = 1 - inset;
      const r = (b - a) * 0.2;
      const cx = Math.min(Math.max(u, a + r), b - r);
      const cy = Math.min(Math.max(v, a + r), b - r);
      const d = Math.hypot(u - cx, v - cy);
      if (d > r) continue;
      cover++;
      if (d > r - (b - a) * 0.06 || Math.min(u - a, b - u, v - a, b - v) < (b - a) * 0.06) {
        border++;
        continue;
      }
      const s = b - a;
      for (const [px, py] of [
        [0.27, 0.27],
        [0.5, 0.5],
        [0.73, 0.73],
      ]) {
        if (Math.hypot(u - (a + px * s), v - (a + py * s)) < s * 0.085) {
          pip++;
          break;
        }
      }
    }
  }
  return [cover, pip, border, n * n] as Rgba;
}

function draw(size: number, maskable: boolean): Buffer {
  const inset = maskable ? 0.2 : 0.06;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0, then RGBA
    for (let x = 0; x < size; x++) {
      const [cover, pip, border, n] = die(x, y, size, inset);
      const ink = (pip + border) / n;
      const paper = (cover - pip - border) / n;
      const outside = 1 - cover / n;
      const rgb = [0, 1, 2].map((c) =>
        Math.round(
          (FELT[c] * ink + IVORY[c] * paper + (maskable ? FELT[c] * outside : 0)) /
            Math.max(ink + paper + (maskable ? outside : 0), 1e-9),
        ),
      );
      const alpha = maskable ? 255 : Math.round((cover / n) * 255);
      row.set([...rgb, alpha], 1 + x * 4);
    }
    rows.push(row);
  }
  return png(size, Buffer.concat(rows));
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function png(size: number, raw: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

for (const [name, size, maskable] of [
  ["icon-192.png", 192, false],
  ["icon-512.png", 512, false],
  ["maskable-512.png", 512, true],
  ["apple-touch-icon-180.png", 180, true],
] as const) {
  writeFileSync(join(OUT, name), draw(size, maskable));
  console.log(`wrote web/public/icons/${name}`);
}
