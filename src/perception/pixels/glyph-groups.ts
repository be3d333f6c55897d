// Groups the small shapes of an edge map into words and icons. Glyphs of one word sit side by
// side at about the same height with gaps narrower than the text is tall; dots and accents sit
// just above a taller glyph. A group of several side-by-side shapes, or one wide one (glyphs that
// touch), is text to read; one compact shape, or a few stacked, is an icon, and so is a shape
// with others inside it (a trash can's slots, a ring around a dot), which no word has. Shapes in
// different frames are never one word: a button's picture and the ring beside the button are two.
import type { Component } from "./components.ts";
import { area, contains, type Box } from "./geometry.ts";
import { SpatialIndex } from "./spatial-index.ts";

/** Text to read, or an icon; `round`: a small circle, as a radio button's is. */
export type GlyphGroup = { kind: "text"; box: Box } | { kind: "icon"; box: Box; round: boolean };

/** A gap between words narrower than this share of the text's height joins them. */
const WORD_GAP = 0.75;
const MAX_GLYPH_HEIGHT = 72;
const ICON_MIN = 10;
const ICON_MAX = 64;
/** Shapes smaller than this in both directions are noise unless they join a group. */
const SPECK = 3;
/** A shape on top of an icon this close to it is part of it. */
const LID_GAP = 3;
/** The widest circle taken for a radio button's. */
const ROUND_MAX = 24;
/** A frame line's stub beside text: at most this many rows of edges, at least MIN_STUB columns long. */
const STUB_THICKNESS = 5;
const MIN_STUB = 5;
/** The least height of a line of text. */
const MIN_LINE = 7;

export function groupGlyphs(shapes: Component[], mask: Uint8Array, maskWidth: number, frames: Box[]): GlyphGroup[] {
  const all = shapes.filter((c) => c.y1 - c.y0 + 1 <= MAX_GLYPH_HEIGHT);
  // Side by side first; small parts above or below (dots, accents) then join the nearest group,
  // so that an i's dot never bridges two lines of text.
  const index = new SpatialIndex(all);
  const marks = new Set(all.filter((c) => isMark(c, index)));
  const parts = all.filter((c) => !marks.has(c)).sort((a, b) => a.x0 - b.x0);
  const frameOf = innermostFrame(frames);
  const within = parts.map(frameOf);
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
      if (within[i] === within[j] && sideBySide(a, parts[j]!)) parent[find(j)] = find(i);
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
  const found: { group: Gathered; kind: "text" | "icon" }[] = [];
  for (const g of groups.values()) {
    const width = g.x1 - g.x0 + 1;
    const height = g.y1 - g.y0 + 1;
    if (width <= SPECK && height <= SPECK) continue;
    const iconSized = width >= ICON_MIN && height >= ICON_MIN && width <= ICON_MAX && height <= ICON_MAX && width <= 2 * height && height <= 2 * width;
    const row = g.members.filter((m) => m.y1 - m.y0 + 1 > height * 0.4).length >= 2;
    if (iconSized && enclosing(g)) found.push({ group: g, kind: "icon" });
    else if (row || (width > 2 * height && height >= 5)) found.push({ group: g, kind: "text" });
    else if (iconSized) found.push({ group: g, kind: "icon" });
  }
  const out: GlyphGroup[] = [];
  for (const { group, kind } of withLids(found)) {
    const box = { x: group.x0, y: group.y0, width: group.x1 - group.x0 + 1, height: group.y1 - group.y0 + 1 };
    if (kind === "icon") out.push({ kind, box, round: isRound(box, mask, maskWidth) });
    else for (const line of splitLines(box, mask, maskWidth)) out.push({ box: withoutStubs(line, mask, maskWidth), kind: "text" });
  }
  return out;
}

/** For each shape, the smallest frame around it (its index), or -1. */
function innermostFrame(frames: Box[]): (c: Component) => number {
  const bySize = frames.map((box, i) => ({ box, i })).sort((a, b) => area(a.box) - area(b.box));
  return (c) => bySize.find((f) => contains(f.box, { x: c.x0, y: c.y0, width: c.x1 - c.x0 + 1, height: c.y1 - c.y0 + 1 }))?.i ?? -1;
}

/** One member spans most of the group and holds another inside its bounds: a picture, not a word. */
function enclosing(g: Gathered): boolean {
  const width = g.x1 - g.x0 + 1;
  return g.members.some((m) => m.x1 - m.x0 + 1 >= 0.6 * width && g.members.some((o) => o !== m && o.x0 >= m.x0 && o.x1 <= m.x1 && o.y0 >= m.y0 && o.y1 <= m.y1));
}

/**
 * An icon takes in a single shape that sits right on top of it or under it within its columns (a
 * trash can's lid and handle, a lamp's base), which alone would pass for a dash of text.
 */
function withLids(found: { group: Gathered; kind: "text" | "icon" }[]): { group: Gathered; kind: "text" | "icon" }[] {
  const taken = new Set<Gathered>();
  for (const icon of found.filter((f) => f.kind === "icon")) {
    const g = icon.group;
    const slack = Math.round(0.25 * (g.x1 - g.x0 + 1));
    for (const other of found) {
      const o = other.group;
      if (o === g || taken.has(o) || o.members.length !== 1 || o.x0 < g.x0 - slack || o.x1 > g.x1 + slack) continue;
      const gap = Math.max(o.y0, g.y0) - Math.min(o.y1, g.y1) - 1;
      if (gap < 0 || gap > LID_GAP || o.y1 - o.y0 > g.y1 - g.y0) continue;
      taken.add(o);
      g.x0 = Math.min(g.x0, o.x0);
      g.y0 = Math.min(g.y0, o.y0);
      g.x1 = Math.max(g.x1, o.x1);
      g.y1 = Math.max(g.y1, o.y1);
      g.members.push(...o.members);
    }
  }
  return found.filter((f) => !taken.has(f.group));
}

/** A small circle: its edges lie on a ring inside the box, none in the corners (a dot inside may be drawn). */
function isRound(box: Box, mask: Uint8Array, maskWidth: number): boolean {
  if (box.width > ROUND_MAX || Math.abs(box.width - box.height) > 2) return false;
  const cx = box.x + (box.width - 1) / 2;
  const cy = box.y + (box.height - 1) / 2;
  const r = Math.min(box.width, box.height) / 2;
  let edges = 0;
  let corners = 0;
  let ring = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      if (!mask[y * maskWidth + x]) continue;
      const d = Math.hypot(x - cx, y - cy);
      edges++;
      if (d > r + 1) corners++;
      else if (d >= r - 3.5) ring++;
    }
  }
  return edges > 0 && corners <= 0.05 * edges && ring >= 0.6 * edges;
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

/**
 * A line of text without the stub of a frame's line it touches at either end (a group box's title
 * sits on the line): columns whose edges keep to a few rows in its middle, several in a row.
 */
function withoutStubs(box: Box, mask: Uint8Array, maskWidth: number): Box {
  const thin = (x: number) => {
    let top = box.height;
    let bottom = -1;
    for (let y = 0; y < box.height; y++) {
      if (!mask[(box.y + y) * maskWidth + box.x + x]) continue;
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
    return bottom >= 0 && bottom - top < STUB_THICKNESS && top >= 0.3 * box.height && bottom <= 0.7 * box.height;
  };
  let left = 0;
  while (left < box.width && thin(left)) left++;
  let right = box.width;
  while (right > left && thin(right - 1)) right--;
  if (left < MIN_STUB) left = 0;
  if (box.width - right < MIN_STUB) right = box.width;
  return right - left < box.width / 2 ? box : { ...box, x: box.x + left, width: right - left };
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
