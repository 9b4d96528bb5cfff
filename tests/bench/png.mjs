// Real PNG files for the bench history, made the same every run: an RGB picture of a gradient
// with a few rectangles and discs on it, their places and colours drawn from a seed, so that
// each seed gives another picture. Every row is stored with PNG's "Up" filter, so a gradient
// with a few shapes deflates to a few kilobytes however large the picture is.
import { deflateSync } from 'node:zlib';

import { mulberry32 } from './seeded.mjs';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}


/**
 * A `width` × `height` PNG (8-bit RGB) of its own for each `seed`: a Buffer.
 */
export function benchPng(width, height, seed) {
  const next = mulberry32(seed * 2654435761 + 1);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  // The gradient: each channel is a part along x plus a part along y.
  const along = [0, 1, 2].map(() => ({ base: int(20, 90), dx: int(20, 80), dy: int(20, 80) }));
  const fx = along.map(({ dx }) => Uint8Array.from({ length: width }, (_, x) => Math.floor((x * dx) / width)));
  const shapes = [];
  for (let i = 0, n = int(3, 6); i < n; i++) {
    const colour = [int(0, 255), int(0, 255), int(0, 255)];
    if (next() < 0.5) {
      const w = int(width / 12, width / 3);
      const h = int(height / 12, height / 3);
      const x = int(0, width - w);
      const y = int(0, height - h);
      shapes.push({ colour, span: (row) => (row >= y && row < y + h ? [x, x + w] : null) });
    } else {
      const r = int(height / 20, height / 5);
      const cx = int(r, width - r);
      const cy = int(r, height - r);
      shapes.push({
        colour,
        span: (row) => {
          const d = row - cy;
          if (d * d >= r * r) return null;
          const half = Math.floor(Math.sqrt(r * r - d * d));
          return [cx - half, cx + half];
        },
      });
    }
  }
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  let prev = new Uint8Array(stride);
  let cur = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    for (let c = 0; c < 3; c++) {
      const g = along[c].base + Math.floor((y * along[c].dy) / height);
      const f = fx[c];
      for (let x = 0, k = c; x < width; x++, k += 3) cur[k] = g + f[x];
    }
    for (const shape of shapes) {
      const span = shape.span(y);
      if (!span) continue;
      for (let x = Math.max(0, span[0]); x < Math.min(width, span[1]); x++) {
        cur[3 * x] = shape.colour[0];
        cur[3 * x + 1] = shape.colour[1];
        cur[3 * x + 2] = shape.colour[2];
      }
    }
    const at = y * (stride + 1);
    raw[at] = 2; // Up: each byte less the one above it.
    for (let k = 0; k < stride; k++) raw[at + 1 + k] = (cur[k] - prev[k]) & 0xff;
    [prev, cur] = [cur, prev];
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
