#!/usr/bin/env node
/**
 * Draws Parley's icon (a speech bubble holding a question mark) into the PWA's PNG icons and the SVG favicon.
 * Plain Node, no dependencies: the shapes are signed distance functions, rasterized with 4x4 supersampling
 * and written as RGBA PNGs through zlib. One geometry feeds both the PNGs and the SVG so they never drift.
 * Usage: node scripts/make-icons.mjs   (writes public/icons/*.png and public/favicon.svg; outputs are committed)
 */
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const BRAND = [0x3b, 0x5b, 0xdb];
const LIGHT = [0xed, 0xf2, 0xff];
const WHITE = [0xff, 0xff, 0xff];

/** The artwork, in a unit square (y grows downwards). */
const art = {
  bubble: { x0: 0.06, y0: 0.08, x1: 0.94, y1: 0.74, radius: 0.17 },
  tail: [
    [0.2, 0.68],
    [0.46, 0.68],
    [0.16, 0.94],
  ],
  hook: { cx: 0.5, cy: 0.3, radius: 0.115, startDegrees: 180, endDegrees: 430 },
  stem: [
    [0.5, 0.47],
    [0.5, 0.51],
  ],
  stroke: 0.085,
  dot: { cx: 0.5, cy: 0.625, radius: 0.05 },
};

const toRadians = (degrees) => (degrees * Math.PI) / 180;
const hookEnd = [
  art.hook.cx + art.hook.radius * Math.cos(toRadians(art.hook.endDegrees)),
  art.hook.cy + art.hook.radius * Math.sin(toRadians(art.hook.endDegrees)),
];

function roundedRectDistance(x, y, rect) {
  const centerX = (rect.x0 + rect.x1) / 2;
  const centerY = (rect.y0 + rect.y1) / 2;
  const qx = Math.abs(x - centerX) - ((rect.x1 - rect.x0) / 2 - rect.radius);
  const qy = Math.abs(y - centerY) - ((rect.y1 - rect.y0) / 2 - rect.radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - rect.radius;
}

function insideTriangle(x, y, [a, b, c]) {
  const side = (p, q) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

function segmentDistance(x, y, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/** Distance to the question mark's centre line: the hook arc, then the stem down to its end. */
function questionStrokeDistance(x, y) {
  const { cx, cy, radius, startDegrees, endDegrees } = art.hook;
  let angle = (Math.atan2(y - cy, x - cx) * 180) / Math.PI;
  while (angle < startDegrees) angle += 360;
  const arc =
    angle <= endDegrees
      ? Math.abs(Math.hypot(x - cx, y - cy) - radius)
      : Math.min(
          Math.hypot(x - (cx + radius * Math.cos(toRadians(startDegrees))), y - (cy + radius * Math.sin(toRadians(startDegrees)))),
          Math.hypot(x - hookEnd[0], y - hookEnd[1]),
        );
  return Math.min(arc, segmentDistance(x, y, hookEnd, art.stem[0]), segmentDistance(x, y, art.stem[0], art.stem[1]));
}

/** Colour of one point of the artwork, or null where the artwork is transparent. */
function artworkColor(x, y) {
  const inBubble = roundedRectDistance(x, y, art.bubble) <= 0 || insideTriangle(x, y, art.tail);
  if (!inBubble) return null;
  const inMark =
    questionStrokeDistance(x, y) <= art.stroke / 2 || Math.hypot(x - art.dot.cx, y - art.dot.cy) <= art.dot.radius;
  return inMark ? WHITE : BRAND;
}

/**
 * Renders one icon. `fullBleed` fills the square (maskable icons: the platform crops it); otherwise the
 * background is a rounded square. `artScale` is the artwork's share of the side, centred.
 */
function render(size, { fullBleed, artScale }) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  const background = { x0: 0, y0: 0, x1: 1, y1: 1, radius: 0.22 };
  const offset = (1 - artScale) / 2;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          const color =
            artworkColor((x - offset) / artScale, (y - offset) / artScale) ??
            (fullBleed || roundedRectDistance(x, y, background) <= 0 ? LIGHT : null);
          if (!color) continue;
          red += color[0];
          green += color[1];
          blue += color[2];
          alpha += 1;
        }
      }
      const index = (py * size + px) * 4;
      if (alpha > 0) {
        pixels[index] = Math.round(red / alpha);
        pixels[index + 1] = Math.round(green / alpha);
        pixels[index + 2] = Math.round(blue / alpha);
      }
      pixels[index + 3] = Math.round((alpha / (samples * samples)) * 255);
    }
  }
  return encodePng(size, size, pixels);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  // Each scanline starts with filter type 0 (none).
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = (color) => `#${color.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
const point = ([x, y]) => `${+(x * 100).toFixed(2)} ${+(y * 100).toFixed(2)}`;

/** The same artwork as a 100x100 SVG favicon (no background: browsers show it on their own tab colour). */
function faviconSvg() {
  const { bubble, tail, hook, stem, stroke, dot } = art;
  const start = [hook.cx + hook.radius * Math.cos(toRadians(hook.startDegrees)), hook.cy + hook.radius * Math.sin(toRadians(hook.startDegrees))];
  const largeArc = hook.endDegrees - hook.startDegrees > 180 ? 1 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect x="${bubble.x0 * 100}" y="${bubble.y0 * 100}" width="${+((bubble.x1 - bubble.x0) * 100).toFixed(2)}" height="${+((bubble.y1 - bubble.y0) * 100).toFixed(2)}" rx="${bubble.radius * 100}" fill="${hex(BRAND)}"/>
  <path d="M${tail.map(point).join(' L')}Z" fill="${hex(BRAND)}"/>
  <path d="M${point(start)} A${hook.radius * 100} ${hook.radius * 100} 0 ${largeArc} 1 ${point(hookEnd)} L${point(stem[0])} L${point(stem[1])}" fill="none" stroke="${hex(WHITE)}" stroke-width="${stroke * 100}" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="${dot.cx * 100}" cy="${dot.cy * 100}" r="${dot.radius * 100}" fill="${hex(WHITE)}"/>
</svg>
`;
}

const outputs = [
  ['public/icons/icon-192.png', render(192, { fullBleed: false, artScale: 0.74 })],
  ['public/icons/icon-512.png', render(512, { fullBleed: false, artScale: 0.74 })],
  // Maskable: the safe zone is a centred circle of 40% radius. The artwork's farthest point (the tail's tip)
  // is 0.556 of its side from its centre, so at 0.66 it stays within 0.367 of the icon's side.
  ['public/icons/icon-maskable-512.png', render(512, { fullBleed: true, artScale: 0.66 })],
  ['public/favicon.svg', faviconSvg()],
];
for (const [path, content] of outputs) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  console.log(`wrote ${path}`);
}
