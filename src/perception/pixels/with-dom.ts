// A web page's elements from both sources: its DOM's, which know roles and names, and the pixel
// detector's, which also see what the DOM cannot name — controls drawn on a canvas or in an
// image. A pixel control that overlaps a DOM element, or lies mostly inside one, is that element
// and is dropped; so is one that holds two or more DOM elements and reads nothing but their words
// (a dialog's panel around its buttons: a group, not a control), and pixel text, which the DOM
// already has. The rest are numbered after the DOM's.
import type { UiElement } from "../elements.ts";
import { readingOrder } from "./assemble.ts";
import { area, intersection, iou } from "./geometry.ts";

/** Above this overlap (intersection over union) two boxes are one element. */
const SAME_ELEMENT_IOU = 0.3;
/** A pixel element this much inside a DOM element is part of it (an icon in a link). */
const INSIDE_SHARE = 0.7;

/** The pixel controls that are not the DOM's elements. */
export function pixelsOnly(dom: UiElement[], pixels: UiElement[]): UiElement[] {
  return pixels.filter(
    (p) => p.kind !== "text" && !dom.some((d) => iou(d.box, p.box) > SAME_ELEMENT_IOU || intersection(d.box, p.box) >= INSIDE_SHARE * area(p.box)) && !groups(p, dom),
  );
}

/** A pixel box around two or more DOM elements whose words are theirs alone: a panel, not a control (a card has words of its own). */
function groups(pixel: UiElement, dom: UiElement[]): boolean {
  const held = dom.filter((d) => intersection(d.box, pixel.box) >= INSIDE_SHARE * area(d.box));
  if (held.length < 2) return false;
  const theirs = new Set(held.flatMap((d) => words(d.label)));
  return words(pixel.label).every((w) => theirs.has(w));
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The DOM's elements, then `extra` numbered after them in reading order. */
export function numberAfter(dom: UiElement[], extra: UiElement[]): UiElement[] {
  const next = Math.max(0, ...dom.map((d) => d.id)) + 1;
  return [...dom, ...readingOrder(extra).map((p, i) => ({ ...p, id: next + i }))];
}
