// Turns outlines into controls: which frames are buttons, text fields or checkboxes, judged by
// their size and by where the text found inside or beside them sits. A frame the size of a window
// or a panel is a container, not a control.
import type { Frame } from "./frames.ts";
import { area, center, contains, iou, type Box } from "./geometry.ts";
import type { GlyphGroup } from "./glyph-groups.ts";

export interface Control {
  kind: "button" | "textbox" | "checkbox";
  box: Box;
  /** The text inside it (a button's caption, a field's content). */
  inside: GlyphGroup[];
  /** The text that names it from beside it (a checkbox's label, a field's caption on its left). */
  beside: GlyphGroup | null;
}

const MAX_CONTROL_HEIGHT = 100;
const CHECKBOX = { min: 9, max: 22 };

export function controlsFrom(frames: Frame[], groups: GlyphGroup[], screen: { width: number; height: number }): Control[] {
  const candidates = frames
    .map((f) => f.box)
    .filter((b) => b.height <= MAX_CONTROL_HEIGHT && b.width <= Math.min(800, screen.width * 0.7))
    .sort((a, b) => area(b) - area(a));
  // A border drawn twice (a focus ring around a button) is one control: the outer box.
  const boxes: Box[] = [];
  for (const box of candidates) if (!boxes.some((kept) => iou(kept, box) > 0.6)) boxes.push(box);
  // A frame around several frames is a toolbar or a group, not a control; one frame inside a
  // control is part of it (an icon's outline).
  const within = new Map(boxes.map((outer) => [outer, boxes.filter((other) => other !== outer && contains(outer, other, 1))]));
  const containers = new Set(boxes.filter((b) => within.get(b)!.length >= 2));
  const parts = new Set(boxes.filter((b) => !containers.has(b)).flatMap((b) => within.get(b)!));
  const text = groups.filter((g) => g.kind === "text");
  const controls: Control[] = [];
  for (const box of boxes) {
    if (containers.has(box) || parts.has(box)) continue;
    const inside = groups.filter((g) => contains(box, g.box, 1));
    const insideText = inside.filter((g) => g.kind === "text");
    const square = box.width >= CHECKBOX.min && box.width <= CHECKBOX.max && box.height >= CHECKBOX.min && box.height <= CHECKBOX.max && box.width <= box.height * 1.35 && box.height <= box.width * 1.35;
    // A small empty square (a tick is too small to be an icon) with a label on its right is a
    // checkbox; with a picture in it, or no label, it is a small button (a window's close box).
    const label = square && inside.length === 0 ? labelOnRight(box, text) : null;
    if (label) {
      controls.push({ kind: "checkbox", box, inside: [], beside: label });
      continue;
    }
    if (isField(box, insideText)) {
      controls.push({ kind: "textbox", box, inside: insideText, beside: insideText.length === 0 ? captionOf(box, text) : null });
      continue;
    }
    controls.push({ kind: "button", box, inside, beside: null });
  }
  return controls;
}

/** A wide box whose text, if any, starts at its left edge rather than sitting in its middle. */
function isField(box: Box, inside: GlyphGroup[]): boolean {
  if (box.width < 3.5 * box.height) return false;
  if (inside.length === 0) return true;
  const left = Math.min(...inside.map((g) => g.box.x)) - box.x;
  const right = box.x + box.width - Math.max(...inside.map((g) => g.box.x + g.box.width));
  return left < box.height && right > 2 * left + box.height;
}

/** The text just right of a checkbox, on its row. */
function labelOnRight(box: Box, text: GlyphGroup[]): GlyphGroup | null {
  const mid = center(box).y;
  const onRow = text.filter((g) => g.box.x >= box.x + box.width && g.box.x - (box.x + box.width) <= 3 * box.width && g.box.y <= mid && g.box.y + g.box.height >= mid);
  return onRow.sort((a, b) => a.box.x - b.box.x)[0] ?? null;
}

/** The caption of an empty field: the text just left of it on its row, else just above its left edge. */
function captionOf(box: Box, text: GlyphGroup[]): GlyphGroup | null {
  const mid = center(box).y;
  const left = text
    .filter((g) => g.box.x + g.box.width <= box.x && box.x - (g.box.x + g.box.width) <= 3 * box.height && g.box.y <= mid && g.box.y + g.box.height >= mid)
    .sort((a, b) => b.box.x - a.box.x)[0];
  if (left) return left;
  return (
    text
      .filter((g) => g.box.y + g.box.height <= box.y && box.y - (g.box.y + g.box.height) <= box.height && Math.abs(g.box.x - box.x) <= box.height)
      .sort((a, b) => b.box.y - a.box.y)[0] ?? null
  );
}
