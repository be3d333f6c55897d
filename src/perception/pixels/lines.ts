// Long straight strokes on the edge map — a frame's sides, a group box's line, a rule, an
// underline — and the glyphs that touch them. Text set against a border (a list's items, a group
// box's title) is one component with the border on the edge map, so it never reaches the glyph
// grouping, or reaches it with a stub of the line ("-Siz"). Taking the long runs away gives the
// glyphs back; no glyph has a straight run this long.
import { labelComponents, type Component, type Labelling } from "./components.ts";

/** A straight run of at least this many pixels is a line, not a glyph's stroke. */
const LONG = 30;
/** The thickest line a glyph is rejoined across. */
const CROSSING = 6;

/**
 * The shapes a component stands for once its long runs are taken away: a frame's or a line's
 * glyphs (none when nothing touches it), or the component itself when it has no long run.
 * `outline`: the component is a frame, whose pixels are all line, content aside.
 */
export function withoutLines({ labels, components }: Labelling, width: number, c: Component, outline: boolean): Component[] {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (!outline && w < LONG && h < LONG) return [c];
  const own = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0, i = (c.y0 + y) * width + c.x0; x < w; x++, i++) if (labels[i] === c.label) own[y * w + x] = 1;
  // A frame's sides are lines however short the frame; a glyph inside it is shorter than its side.
  const longX = outline ? Math.min(LONG, Math.ceil(0.6 * w)) : LONG;
  const longY = outline ? Math.min(LONG, Math.ceil(0.6 * h)) : LONG;
  const rest = own.slice();
  let removed = 0;
  const clear = (from: number, count: number, step: number) => {
    for (let k = 0, i = from; k < count; k++, i += step) rest[i] = 0;
    removed += count;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; ) {
      if (!own[y * w + x]) { x++; continue; }
      let end = x;
      while (end < w && own[y * w + end]) end++;
      if (end - x >= longX) clear(y * w + x, end - x, 1);
      x = end;
    }
  }
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; ) {
      if (!own[y * w + x]) { y++; continue; }
      let end = y;
      while (end < h && own[end * w + x]) end++;
      if (end - y >= longY) clear(y * w + x, end - y, w);
      y = end;
    }
  }
  if (removed === 0 && !outline) return [c];
  // Where a line runs through a glyph (a title set on a group box's line), the glyph lies both
  // above and below the cut: the cut is given back to it in those columns.
  for (let x = 0; x < w; x++) {
    for (let y = 1; y < h; ) {
      if (!own[y * w + x] || rest[y * w + x]) { y++; continue; }
      let end = y;
      while (end < h && own[end * w + x] && !rest[end * w + x]) end++;
      if (end - y <= CROSSING && end < h && rest[(y - 1) * w + x] && rest[end * w + x]) for (let k = y; k < end; k++) rest[k * w + x] = 1;
      y = end;
    }
  }
  // What is left of a line (a stub up to its corner, a glyph's part cut by it) stays: alone it
  // is too thin to be text or an icon, and beside a word it is trimmed with the word's ends.
  return labelComponents(rest, w, h).components.map((p) => ({ ...p, label: 0, x0: p.x0 + c.x0, x1: p.x1 + c.x0, y0: p.y0 + c.y0, y1: p.y1 + c.y0 }));
}
