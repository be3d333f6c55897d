// The annotated capture of seed 000 §4.2: a red circle (r=12) around the pointer, an arrow from
// 80 px up-left of it (mirrored when that would leave the image) and the label "mouse pointer"
// at the arrow's tail, drawn over the image the model will see.
import sharp from "sharp";
import type { Point } from "./coordinates.ts";
import type { Screenshot } from "./screenshot.ts";

export const POINTER_LABELS = { en: "mouse pointer", zh: "鼠标指针" } as const;
export type Locale = keyof typeof POINTER_LABELS;

const RED = "#ff3b30";
const RADIUS = 12;
const ARROW = 80;

export async function annotatePointer(image: Screenshot, pointer: Point, locale: Locale, jpegQuality: number): Promise<Screenshot> {
  const { width, height } = image;
  const { x, y } = pointer;
  // The tail goes up-left as the seed draws it, mirrored on an axis where it would fall outside.
  const sx = x - ARROW >= 0 ? -1 : 1;
  const sy = y - ARROW >= 0 ? -1 : 1;
  const tail = { x: x + sx * ARROW, y: y + sy * ARROW };
  // The arrow stops at the circle, with its head touching it.
  const tip = { x: x + sx * RADIUS * Math.SQRT1_2 * 1.3, y: y + sy * RADIUS * Math.SQRT1_2 * 1.3 };
  const head = arrowHead(tail, tip);
  const label = POINTER_LABELS[locale];
  // Centred on the tail, kept inside the image; the width is an estimate (no font metrics here).
  const labelWidth = [...label].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 17 : 10), 0);
  const labelX = Math.min(Math.max(tail.x, labelWidth / 2 + 2), width - labelWidth / 2 - 2);
  const labelY = tail.y + (sy < 0 ? -8 : 22);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <circle cx="${x}" cy="${y}" r="${RADIUS}" fill="none" stroke="${RED}" stroke-width="4"/>
  <line x1="${tail.x}" y1="${tail.y}" x2="${tip.x}" y2="${tip.y}" stroke="${RED}" stroke-width="4" stroke-linecap="round"/>
  <polygon points="${head}" fill="${RED}"/>
  <text x="${labelX}" y="${labelY}" text-anchor="middle" font-family="DejaVu Sans, Noto Sans CJK SC, sans-serif" font-size="16" font-weight="bold"
        fill="${RED}" stroke="#ffffff" stroke-width="3" paint-order="stroke">${label}</text>
</svg>`;
  const data = await sharp(image.data)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: jpegQuality })
    .toBuffer();
  return { data, mimeType: "image/jpeg", width, height };
}

function arrowHead(from: Point, to: Point): string {
  const angle = Math.atan2(to.y - from.y, to.x - from.x);
  const size = 14;
  const left = { x: to.x - size * Math.cos(angle - Math.PI / 7), y: to.y - size * Math.sin(angle - Math.PI / 7) };
  const right = { x: to.x - size * Math.cos(angle + Math.PI / 7), y: to.y - size * Math.sin(angle + Math.PI / 7) };
  return [to, left, right].map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
}
