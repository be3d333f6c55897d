// Set-of-Mark perception (seed 002 §2.2, §2.4): the interactive elements on screen, numbered, with
// their boxes; a text list for the model and the same numbers drawn on the screenshot. A browser's
// elements come from its DOM and ARIA roles, with what only its pixels show; a desktop's from its
// pixels alone (pixels/).
import sharp from "sharp";
import { scalePoint, type Size } from "./coordinates.ts";
import type { Screenshot } from "./screenshot.ts";

export interface UiElement {
  id: number;
  /** Role or tag: button, link, textbox, checkbox… */
  kind: string;
  label: string;
  /** In the pixels of the image the elements belong to. */
  box: { x: number; y: number; width: number; height: number };
}

/** The elements with their boxes mapped from one pixel space onto another. */
export function scaleElements(elements: UiElement[], from: Size, to: Size): UiElement[] {
  return elements.map((e) => {
    const a = scalePoint({ x: e.box.x, y: e.box.y }, from, to);
    const b = scalePoint({ x: e.box.x + e.box.width, y: e.box.y + e.box.height }, from, to);
    return { ...e, box: { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y } };
  });
}

export function centerOf(element: UiElement): { x: number; y: number } {
  return { x: Math.round(element.box.x + element.box.width / 2), y: Math.round(element.box.y + element.box.height / 2) };
}

/**
 * `[3] button "Send" at (640, 300), top right`, one line per element; the part of the screen
 * (seed 002 §2.4's position description) when the screen's size is given.
 */
export function describeElements(elements: UiElement[], screen?: Size): string {
  return elements
    .map((e) => {
      const at = centerOf(e);
      return `[${e.id}] ${e.kind} ${JSON.stringify(e.label)} at (${at.x}, ${at.y})${screen ? `, ${placeOn(at, screen)}` : ""}`;
    })
    .join("\n");
}

/** Which ninth of the screen a point is in: `top left`, `middle right`, `centre`… */
function placeOn(point: { x: number; y: number }, screen: Size): string {
  const column = point.x < screen.width / 3 ? "left" : point.x < (2 * screen.width) / 3 ? "centre" : "right";
  const row = point.y < screen.height / 3 ? "top" : point.y < (2 * screen.height) / 3 ? "middle" : "bottom";
  return row === "middle" && column === "centre" ? "centre" : `${row} ${column}`;
}

/** The screenshot with each element's box and number drawn on it. */
export async function drawMarks(image: Screenshot, elements: UiElement[], jpegQuality: number): Promise<Screenshot> {
  const marks = elements
    .map((e) => {
      const { x, y, width, height } = e.box;
      const tag = String(e.id);
      const tagWidth = 8 + tag.length * 8;
      return `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="none" stroke="#2563eb" stroke-width="2"/>
<rect x="${x}" y="${Math.max(0, y - 16)}" width="${tagWidth}" height="16" fill="#2563eb"/>
<text x="${x + 4}" y="${Math.max(0, y - 16) + 12}" font-family="DejaVu Sans, sans-serif" font-size="12" font-weight="bold" fill="#ffffff">${tag}</text>`;
    })
    .join("\n");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">${marks}</svg>`;
  const data = await sharp(image.data).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]).jpeg({ quality: jpegQuality }).toBuffer();
  return { data, mimeType: "image/jpeg", width: image.width, height: image.height };
}
