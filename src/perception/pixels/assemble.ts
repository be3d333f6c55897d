// The element list the model gets (seed 002 §2.4): detections capped to the most important ones,
// sorted top to bottom and, within a row, left to right, and numbered from 1 in that order.
import type { UiElement } from "../elements.ts";
import type { Detection } from "./detection.ts";

/** Centres closer than this vertically are on one row. */
const ROW_TOLERANCE = 10;

/** `detections` in order of importance: the first `max` are kept. */
export function numberElements(detections: Detection[], max: number): UiElement[] {
  return readingOrder(detections.slice(0, max)).map((d, i) => ({ id: i + 1, kind: d.kind, label: d.label, box: roundBox(d.box) }));
}

/** Rows top to bottom (a row: centres within the tolerance of its first), each left to right. */
export function readingOrder<T extends { box: { x: number; y: number; width: number; height: number } }>(items: T[]): T[] {
  const byTop = [...items].sort((a, b) => middle(a) - middle(b));
  const out: T[] = [];
  for (let start = 0; start < byTop.length; ) {
    let end = start + 1;
    while (end < byTop.length && middle(byTop[end]!) - middle(byTop[start]!) <= ROW_TOLERANCE) end++;
    out.push(...byTop.slice(start, end).sort((a, b) => a.box.x - b.box.x));
    start = end;
  }
  return out;
}

function middle(item: { box: { y: number; height: number } }): number {
  return item.box.y + item.box.height / 2;
}

function roundBox(box: Detection["box"]): UiElement["box"] {
  const x = Math.round(box.x);
  const y = Math.round(box.y);
  return { x, y, width: Math.max(1, Math.round(box.x + box.width) - x), height: Math.max(1, Math.round(box.y + box.height) - y) };
}
