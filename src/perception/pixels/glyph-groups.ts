// Groups the small shapes of an edge map into words and icons. Glyphs of one word sit side by
// side at about the same height with gaps narrower than the text is tall; dots and accents sit
// just above a taller glyph. A group of several side-by-side shapes, or one wide one (glyphs that
// touch), is text to read; one compact shape, or a few stacked, is an icon.
import type { Component } from "./components.ts";
import type { Box } from "./geometry.ts";
import { SpatialIndex } from "./spatial-index.ts";

export interface GlyphGroup {
  box: Box;
  kind: "text" | "icon";
}

/** A gap between words narrower than this share of the text's height joins them. */
const WORD_GAP = 0.75;
const MAX_GLYPH_HEIGHT = 72;
const ICON_MIN = 10;
const ICON_MAX = 64;
/** Shapes smaller than this in both directions are noise unless they join a group. */
const SPECK = 3;
/** The least height of a line of text. */
const MIN_LINE = 7;

export function groupGlyphs(shapes: Component[], mask: Uint8Array, maskWidth: number): GlyphGroup[] {
  const all = shapes.filter((c) => c.y1 - c.y0 + 1 <= MAX_GLYPH_HEIGHT);
  // Side by side first; small parts above or below (dots, accents) then join the nearest group,
  // so that an i's dot never bridges two lines of text.
  const index = new SpatialIndex(all);
  const marks = new Set(all.filter((c) => isMark(c, index)));
  const parts = all.filter((c) => !marks.has(c)).sort((a, b) => a.x0 - b.x0);
  const parent = parts.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < parts.length; i++) {
    const a = parts[i]!;
    const ah = a.y1 - a.y0 + 1;
    // Sorted by left edge: later shapes start further right, so the scan stops past the widest gap.
    const reach = a.x1 + WORD_GAP * 3 * ah + 1;
    for (let j = i + 1; j < parts.length && parts[j]!.x0 <= reach; j++) {
      if (sideBySide(a, parts[j]!)) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, Gathered>();
  parts.forEach((c, i) => gather(groups, find(i), c));
  const roots = new Map(parts.map((c, i) => [c, find(i)]));
  const partIndex = new SpatialIndex(parts);
  for (const mark of marks) {
    let best: { root: number; gap: number } | null = null;
    for (const part of partIndex.near(mark.x0, mark.y0 - MAX_GLYPH_HEIGHT, mark.x1, mark.y1 + MAX_GLYPH_HEIGHT)) {
      const overlapX = Math.min(mark.x1, part.x1) - Math.max(mark.x0, part.x0) + 1;
      const gap = Math.max(mark.y0, part.y0) - Math.min(mark.y1, part.y1) - 1;
      if (overlapX > 0 && gap <= Math.max(2, 0.3 * (part.y1 - part.y0 + 1)) && (!best || gap < best.gap)) best = { root: roots.get(part)!, gap };
    }
    if (best) gather(groups, best.root, mark);
  }
  const out: GlyphGroup[] = [];
  for (const g of groups.values()) {
    const width = g.x1 - g.x0 + 1;
    const height = g.y1 - g.y0 + 1;
    if (width <= SPECK && height <= SPECK) continue;
    const box = { x: g.x0, y: g.y0, width, height };
    const row = g.members.filter((m) => m.y1 - m.y0 + 1 > height * 0.4).length >= 2;
    if (row || (width > 2 * height && height >= 5)) {
      for (const line of splitLines(box, mask, maskWidth)) out.push({ box: line, kind: "text" });
    } else if (width >= ICON_MIN && height >= ICON_MIN && width <= ICON_MAX && height <= ICON_MAX && width <= 2 * height && height <= 2 * width) {
      out.push({ box, kind: "icon" });
    }
  }
  return out;
}

interface Gathered {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  members: Component[];
}

function gather(groups: Map<number, Gathered>, root: number, c: Component): void {
  const g = groups.get(root);
  if (!g) return void groups.set(root, { x0: c.x0, y0: c.y0, x1: c.x1, y1: c.y1, members: [c] });
  g.x0 = Math.min(g.x0, c.x0);
  g.y0 = Math.min(g.y0, c.y0);
  g.x1 = Math.max(g.x1, c.x1);
  g.y1 = Math.max(g.y1, c.y1);
  g.members.push(c);
}

/** Two shapes of one word: side by side, at about the same height, a narrow gap apart. */
function sideBySide(a: Component, b: Component): boolean {
  const low = Math.min(a.y1 - a.y0 + 1, b.y1 - b.y0 + 1);
  const high = Math.max(a.y1 - a.y0 + 1, b.y1 - b.y0 + 1);
  const overlapY = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) + 1;
  const gapX = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1) - 1;
  return overlapY >= 0.5 * low && (high <= 3 * low || speck(a) || speck(b)) && gapX <= WORD_GAP * high;
}

function speck(c: Component): boolean {
  return c.x1 - c.x0 + 1 <= 4 && c.y1 - c.y0 + 1 <= 4;
}

/** A dot or an accent: a small part with a taller shape right below or above it, over the same columns. */
function isMark(c: Component, index: SpatialIndex<Component>): boolean {
  const h = c.y1 - c.y0 + 1;
  if (h > 6 || c.x1 - c.x0 + 1 > 10) return false;
  return [...index.near(c.x0, c.y0 - 3 * h, c.x1, c.y1 + 3 * h)].some((o) => {
    const oh = o.y1 - o.y0 + 1;
    if (o === c || oh < 2 * h) return false;
    const overlapX = Math.min(c.x1, o.x1) - Math.max(c.x0, o.x0) + 1;
    const gapY = Math.max(c.y0, o.y0) - Math.min(c.y1, o.y1) - 1;
    return overlapX > 0 && gapY >= 0 && gapY <= Math.max(2, 0.3 * oh);
  });
}

/**
 * Lines set close together touch through descenders, ascenders and underlines: a group is cut
 * where a row of it is nearly empty, into bands each tall enough to be text.
 */
function splitLines(box: Box, mask: Uint8Array, maskWidth: number): Box[] {
  if (box.height < 2 * MIN_LINE) return [box];
  const rows = new Array<number>(box.height).fill(0);
  for (let y = 0; y < box.height; y++) {
    const from = (box.y + y) * maskWidth + box.x;
    for (let x = 0; x < box.width; x++) rows[y]! += mask[from + x]!;
  }
  const quiet = Math.max(1, Math.max(...rows) * 0.06);
  const bands: [number, number][] = [];
  let start = 0;
  for (let y = MIN_LINE; y <= box.height - MIN_LINE; y++) {
    // A quiet row no busier than its neighbours is a cut.
    if (rows[y]! <= quiet && y - start >= MIN_LINE && rows[y]! <= rows[y - 1]! && rows[y]! <= (rows[y + 1] ?? Infinity)) {
      bands.push([start, y]);
      start = y + 1;
      y += MIN_LINE - 1;
    }
  }
  if (bands.length === 0) return [box];
  bands.push([start, box.height]);
  return bands.map(([top, bottom]) => tighten({ x: box.x, y: box.y + top, width: box.width, height: bottom - top }, mask, maskWidth));
}

/** The box shrunk to the columns that hold edge pixels. */
function tighten(box: Box, mask: Uint8Array, maskWidth: number): Box {
  let left = box.width;
  let right = -1;
  for (let y = 0; y < box.height; y++) {
    const from = (box.y + y) * maskWidth + box.x;
    for (let x = 0; x < box.width; x++) {
      if (mask[from + x]) {
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  return right < left ? box : { x: box.x + left, y: box.y, width: right - left + 1, height: box.height };
}
