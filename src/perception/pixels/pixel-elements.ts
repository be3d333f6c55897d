// Set-of-Mark from pixels (seed 002 §2.4): the numbered elements of a screen that has no structure
// to read — a desktop, a canvas — found in its pixels, on the CPU and offline by the built-in
// detector, or by an OmniParser server when one is configured (OMNIPARSER_URL).
import { SOM_DEFAULTS } from "../../core/config.ts";
import type { UiElement } from "../elements.ts";
import { numberElements } from "./assemble.ts";
import { detect } from "./detector.ts";
import { omniparse } from "./omniparser.ts";
import type { Raster } from "./raster.ts";
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
}
