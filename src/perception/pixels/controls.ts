// Turns outlines into controls: which frames are buttons, text fields, checkboxes or lists, judged
// by their size and by where the text found inside or beside them sits, and which small circles
// are radio buttons. A frame the size of a window or a panel is a container, not a control.
import type { Frame } from "./frames.ts";
import { area, center, contains, iou, type Box } from "./geometry.ts";
import type { GlyphGroup } from "./glyph-groups.ts";

export interface Control {
  kind: "button" | "textbox" | "checkbox" | "radio" | "listbox" | "slider";
  box: Box;
  /** What is inside it: a button's caption or picture, a field's content, a list's items (one line each), a radio button's circle. */
  inside: GlyphGroup[];
  /** The text that names it from beside it (a checkbox's label, a field's or a list's caption). */
  beside: GlyphGroup | null;
}

const MAX_CONTROL_HEIGHT = 100;
const CHECKBOX = { min: 9, max: 22 };

export function controlsFrom(frames: Frame[], groups: GlyphGroup[], screen: { width: number; height: number }): Control[] {
  const troughs = new Set(frames.filter((f) => f.knob).map((f) => f.box));
  const candidates = frames
    .map((f) => f.box)
    .filter((b) => b.width <= Math.min(800, screen.width * 0.7) && (b.height <= MAX_CONTROL_HEIGHT || isList(b, textIn(b, groups))))
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
    if (troughs.has(box) && insideText.length === 0) {
      controls.push({ kind: "slider", box, inside: [], beside: captionOf(box, text) });
      continue;
    }
    if (isList(box, insideText)) {
      // A list's caption sits above it: beside its middle row is another column's text.
      controls.push({ kind: "listbox", box, inside: insideText, beside: captionAbove(box, text) });
      continue;
    }
    if (isField(box, insideText)) {
      controls.push({ kind: "textbox", box, inside: insideText, beside: insideText.length === 0 ? captionOf(box, text) : null });
      continue;
    }
    controls.push({ kind: "button", box, inside, beside: null });
  }
  // A small circle with a label on its right is a radio button (an option of a group).
  const owned = new Set(controls.flatMap((c) => c.inside));
  for (const g of groups) {
    if (g.kind !== "icon" || !g.round || g.box.width > CHECKBOX.max || owned.has(g)) continue;
    const label = labelOnRight(g.box, text);
    if (label) controls.push({ kind: "radio", box: g.box, inside: [g], beside: label });
  }
  return controls;
}

const textIn = (box: Box, groups: GlyphGroup[]) => groups.filter((g) => g.kind === "text" && contains(box, g.box, 1));

/** Lines of text stacked one under another, all starting at one left edge near the box's: a list's items. */
function isList(box: Box, inside: GlyphGroup[]): boolean {
  if (inside.length < 2) return false;
  const lines = [...inside].sort((a, b) => a.box.y - b.box.y);
  const height = Math.max(...lines.map((l) => l.box.height));
  const lefts = lines.map((l) => l.box.x);
  const stacked = lines.every((l, i) => i === 0 || l.box.y >= lines[i - 1]!.box.y + lines[i - 1]!.box.height - 1);
  return stacked && Math.max(...lefts) - Math.min(...lefts) <= height && Math.min(...lefts) - box.x <= 2 * height;
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
  return left ?? captionAbove(box, text);
}

/** The text just above a box's left edge. */
function captionAbove(box: Box, text: GlyphGroup[]): GlyphGroup | null {
  const reach = Math.min(box.height, MAX_CONTROL_HEIGHT / 2);
  return (
    text
      .filter((g) => g.box.y + g.box.height <= box.y && box.y - (g.box.y + g.box.height) <= reach && Math.abs(g.box.x - box.x) <= reach)
      .sort((a, b) => b.box.y - a.box.y)[0] ?? null
  );
}
