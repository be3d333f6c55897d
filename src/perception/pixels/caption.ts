// What a click on a screen without a DOM presses, for the approval policy: the caption under the
// point, read from the pixels around it by the built-in detector (never an OmniParser server: a
// click must not wait on one).
import { SOM_DEFAULTS } from "../../core/config.ts";
import type { Point } from "../coordinates.ts";
import { numberElements } from "./assemble.ts";
import { detect } from "./detector.ts";
import { area, contains, type Box } from "./geometry.ts";
import { rasterFromBgrx, type Raster } from "./raster.ts";
import { TextRecognizer } from "./recognizer.ts";

/** The pixels around a point read for its label: wide enough for a button's caption beside it. */
const LABEL_AREA = { width: 480, height: 160 };
/** How far outside an element's box a point still counts as on it, in pixels. */
const LABEL_SLACK = 4;

/** {@link captionAt} on a screen's 32-bit pixels (an X server's, nut-js's), converting only those around the point. */
export function captionOnScreen(pixels: Buffer, screen: { width: number; height: number }, stride: number, point: Point): Promise<string | null> {
  const around = labelArea(point, screen);
  return captionAt(rasterFromBgrx(pixels, screen.width, screen.height, stride, around), around, point);
}

/** Where the pixels around a point are read from, clipped to the image it is in. */
function labelArea(point: Point, image: { width: number; height: number }): Box {
  const x = Math.min(Math.max(0, Math.round(point.x - LABEL_AREA.width / 2)), Math.max(0, image.width - LABEL_AREA.width));
  const y = Math.min(Math.max(0, Math.round(point.y - LABEL_AREA.height / 2)), Math.max(0, image.height - LABEL_AREA.height));
  return { x, y, width: Math.min(LABEL_AREA.width, image.width), height: Math.min(LABEL_AREA.height, image.height) };
}

/**
 * The caption a click at `point` presses, read from `around` (the pixels of {@link labelArea}, at
 * `origin` on the screen): a button's, a checkbox's or an icon's label, or a few words there (a
 * menu item); null for a field, whose label is its content, for a line of text or a file name,
 * and when nothing readable holds the point.
 */
async function captionAt(around: Raster, origin: Point, point: Point): Promise<string | null> {
  const { ocrBudgetMs, maxElements } = SOM_DEFAULTS;
  const found = numberElements(await detect(around, await TextRecognizer.shared(), { ocrBudgetMs, maxElements }), maxElements);
  const at = { x: point.x - origin.x, y: point.y - origin.y, width: 0, height: 0 };
  const [element] = found.filter((e) => e.label.trim() && contains(e.box, at, LABEL_SLACK)).sort((a, b) => area(a.box) - area(b.box));
  if (!element || element.kind === "textbox") return null;
  return element.kind !== "text" || isCaption(element.label) ? element.label : null;
}

/**
 * Words that read as a caption to press (a menu item: "Delete", "Move to Trash…"), not as content:
 * at most three words, no file name ("post.txt"), no sentence.
 */
export function isCaption(words: string): boolean {
  const name = words.replace(/\s+/g, " ").trim().replace(/(\.\.\.|…)$/, "");
  return name.length > 0 && name.split(" ").length <= 3 && !/\w\.[A-Za-z]{1,5}\b|[.!?。]\s/.test(name);
}
