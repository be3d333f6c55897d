// Set-of-Mark from pixels (seed 002 §2.4): the numbered elements of a screen that has no structure
// to read — a desktop, a canvas — found in its pixels, on the CPU and offline by the built-in
// detector, or by an OmniParser server when one is configured (OMNIPARSER_URL).
import { SOM_DEFAULTS } from "../../core/config.ts";
import type { Point } from "../coordinates.ts";
import type { UiElement } from "../elements.ts";
import { numberElements } from "./assemble.ts";
import { detect } from "./detector.ts";
import { area, contains } from "./geometry.ts";
import { omniparse } from "./omniparser.ts";
import { crop, type Raster } from "./raster.ts";
import { TextRecognizer } from "./recognizer.ts";

export interface PixelSomOptions {
  /** At most this many elements are numbered (seed 002: 40). */
  maxElements: number;
  /** How long OCR may take on one screen, in ms. */
  ocrBudgetMs: number;
  /** An OmniParser server that replaces the built-in detector. */
  omniparserUrl?: string | undefined;
  omniparserTimeoutMs: number;
}

/** The pixels around a point read for its label: wide enough for a button's caption beside it. */
const LABEL_AREA = { width: 480, height: 160 };
/** How far outside an element's box a point still counts as on it, in pixels. */
const LABEL_SLACK = 4;

export class PixelElements {
  constructor(private readonly options: PixelSomOptions = SOM_DEFAULTS) {}

  /** The elements of the image, numbered from 1, boxes in its pixels. */
  async find(image: Raster): Promise<UiElement[]> {
    const { omniparserUrl, maxElements } = this.options;
    const detections = omniparserUrl
      ? await omniparse(image, { url: omniparserUrl, timeoutMs: this.options.omniparserTimeoutMs })
      : await detect(image, await TextRecognizer.shared(), { ocrBudgetMs: this.options.ocrBudgetMs, maxElements });
    return numberElements(detections, maxElements);
  }

  /**
   * The label of the element at `point` (a control's caption, or the words there), read from the
   * pixels around it; null when none is found there. The smallest element holding the point wins.
   */
  async labelAt(image: Raster, point: Point): Promise<string | null> {
    const x = Math.max(0, Math.round(point.x - LABEL_AREA.width / 2));
    const y = Math.max(0, Math.round(point.y - LABEL_AREA.height / 2));
    const found = await this.find(crop(image, { x, y, ...LABEL_AREA }));
    const at = { x: point.x - x, y: point.y - y, width: 0, height: 0 };
    const holding = found.filter((e) => e.label.trim() && contains(e.box, at, LABEL_SLACK)).sort((a, b) => area(a.box) - area(b.box));
    return holding[0]?.label ?? null;
  }
}
