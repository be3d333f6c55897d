// The page's Set-of-Mark: the DOM's interactive elements in the viewport, then the controls only the
// pixels show (drawn on a canvas, in an image), numbered after them, in screenshot pixels.
import type { Page } from "playwright-core";
import type { Point } from "../../perception/coordinates.ts";
import type { UiElement } from "../../perception/elements.ts";
import type { PixelElements } from "../../perception/pixels/pixel-elements.ts";
import type { Raster } from "../../perception/pixels/raster.ts";
import { numberAfter, pixelsOnly } from "../../perception/pixels/with-dom.ts";
import { behindLayers, domIndex } from "./dom-index.ts";

/** Set-of-Mark numbers at most this many elements: more would crowd the screenshot and the prompt. */
const MAX_ELEMENTS = 150;

export interface PageElementsOptions {
  /** The screen's page, read as each operation runs: the screen may change meanwhile. */
  page: () => Page;
  deviceScaleFactor: number;
  pixels: PixelElements;
  /** The viewport in device pixels, decoded from a lossless capture: a JPEG's ringing around text would read as edges. */
  losslessCapture: () => Promise<Raster>;
  toCss: (x: number, y: number) => Point;
  /** Runs each operation on the page as the computer runs its own. */
  guard: <T>(operation: () => Promise<T>) => Promise<T>;
}

/**
 * A pixel control that shows through a layer which hides it (a modal's backdrop) is left out, by the
 * rule that leaves out the DOM's: a click there lands on the layer.
 */
export async function pageElements({ page, deviceScaleFactor: scale, pixels, losslessCapture, toCss, guard }: PageElementsOptions): Promise<UiElement[]> {
  const found = await guard(() => domIndex(page(), { scope: "viewport" }));
  const dom = found.slice(0, MAX_ELEMENTS).map((e) => ({
    id: e.clickId,
    kind: e.role,
    label: e.text ?? "",
    box: { x: Math.round(e.bbox.x * scale), y: Math.round(e.bbox.y * scale), width: Math.round(e.bbox.w * scale), height: Math.round(e.bbox.h * scale) },
  }));
  const extra = pixelsOnly(dom, await pixels.find(await guard(losslessCapture)));
  if (extra.length === 0) return dom;
  const centres = extra.map(({ box }) => toCss(box.x + box.width / 2, box.y + box.height / 2));
  // A page that went away meanwhile (it navigated) cannot say: its controls stay, as they were found.
  const behind = await guard(() => behindLayers(page(), centres)).catch(() => centres.map(() => false));
  return numberAfter(dom, extra.filter((_, i) => !behind[i]));
}
