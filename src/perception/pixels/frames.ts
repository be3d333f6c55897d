// Rectangles drawn around controls: a button's border, a text field's box, a checkbox's square,
// a list's box, a slider's trough. On an edge map such an outline is one component whose pixels
// lie along its bounding box, with all four sides drawn (rounded corners may be missing).
import type { Component, Labelling } from "./components.ts";
import type { Box } from "./geometry.ts";
import { SpatialIndex } from "./spatial-index.ts";

/** How far from the bounding box an outline's pixels may lie (a 1-px border gives a 2-px edge). */
const BAND = 3;
/** The share of each side's middle part that must be drawn. */
const SIDE_COVERAGE = 0.9;
/**
 * The share of the component's pixels that lie in the band along the box. Less on a large box:
 * text set against its border (a list's items) joins it on the edge map, and a box whose four
 * sides are all drawn is a frame whatever touches it.
 */
const ON_OUTLINE = { small: 0.6, large: 0.4 };
const MIN_SIDE = 9;
/** The tallest slider trough. */
const TROUGH_HEIGHT = 40;
/** Below this a box may be a glyph (D, n, 口): it is one when another glyph touches it. */
const SMALL = 24;

export interface Frame {
  component: Component;
  box: Box;
  /** A slider's trough: a long thin frame with a knob's sides drawn across it, joined to its border. */
  knob: boolean;
}

export function findFrames({ labels, components }: Labelling, width: number): Frame[] {
  const frames: Frame[] = [];
  const index = new SpatialIndex(components);
  for (const c of components) {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    if (w < MIN_SIDE || h < MIN_SIDE) continue;
    // An outline has about its perimeter's worth of pixels; far more is a filled or busy shape.
    if (c.pixels > 2 * (w + h) * BAND * 1.5) continue;
    const at = (x: number, y: number) => labels[y * width + x] === c.label;
    // Narrow on small shapes, so that a round glyph (o, e, a) is not taken for a little box.
    const band = Math.max(1, Math.min(BAND, Math.floor(Math.min(w, h) / 5)));
    const side = (from: number, to: number, drawn: (i: number) => boolean) => {
      const margin = Math.floor((to - from) * 0.1);
      let covered = 0;
      for (let i = from + margin; i <= to - margin; i++) if (drawn(i)) covered++;
      return covered / (to - from - 2 * margin + 1);
    };
    const any = (count: number, test: (k: number) => boolean) => {
      for (let k = 0; k < count; k++) if (test(k)) return true;
      return false;
    };
    const top = side(c.x0, c.x1, (x) => any(band, (k) => at(x, c.y0 + k)));
    if (top < SIDE_COVERAGE) continue;
    const bottom = side(c.x0, c.x1, (x) => any(band, (k) => at(x, c.y1 - k)));
    if (bottom < SIDE_COVERAGE) continue;
    const left = side(c.y0, c.y1, (y) => any(band, (k) => at(c.x0 + k, y)));
    if (left < SIDE_COVERAGE) continue;
    const right = side(c.y0, c.y1, (y) => any(band, (k) => at(c.x1 - k, y)));
    if (right < SIDE_COVERAGE) continue;
    let onOutline = 0;
    for (let y = c.y0; y <= c.y1; y++) {
      if (y - c.y0 < band || c.y1 - y < band) {
        for (let x = c.x0; x <= c.x1; x++) if (at(x, y)) onOutline++;
        continue;
      }
      for (let k = 0; k < band; k++) {
        if (at(c.x0 + k, y)) onOutline++;
        if (at(c.x1 - k, y)) onOutline++;
      }
    }
    if (onOutline / c.pixels < (Math.min(w, h) >= SMALL ? ON_OUTLINE.large : ON_OUTLINE.small)) continue;
    if (Math.max(w, h) < SMALL && besideGlyph(c, index)) continue;
    frames.push({ component: c, box: { x: c.x0, y: c.y0, width: w, height: h }, knob: h <= TROUGH_HEIGHT && w >= 4 * h && acrossCount(c, band, at) >= 2 });
  }
  return frames;
}

/** The columns inside the frame that its own pixels cross from top to bottom (give or take a few): a knob's sides, a divider. */
function acrossCount(c: Component, band: number, at: (x: number, y: number) => boolean): number {
  const rows = c.y1 - c.y0 + 1 - 2 * band;
  let across = 0;
  for (let x = c.x0 + band; x <= c.x1 - band; x++) {
    let drawn = 0;
    for (let y = c.y0 + band; y <= c.y1 - band; y++) if (at(x, y)) drawn++;
    if (drawn >= 0.7 * rows) across++;
  }
  return across;
}

/** A letter of a word: another shape of about its height sits closer beside it than words are spaced. */
function besideGlyph(c: Component, index: SpatialIndex<Component>): boolean {
  const h = c.y1 - c.y0 + 1;
  const gap = Math.max(2, Math.round(0.25 * h));
  for (const o of index.near(c.x0 - gap, c.y0, c.x1 + gap, c.y1)) {
    if (o === c) continue;
    const oh = o.y1 - o.y0 + 1;
    const overlapY = Math.min(c.y1, o.y1) - Math.max(c.y0, o.y0) + 1;
    if (overlapY >= 0.5 * Math.min(h, oh) && oh >= 0.5 * h && oh <= 1.5 * h && (o.x1 < c.x0 || o.x0 > c.x1)) return true;
  }
  return false;
}
