// What a pixel detector finds: a control or a piece of text with its box in the image's pixels,
// before the list is capped, sorted and numbered for the model.
import type { Box } from "./geometry.ts";

export type DetectionKind = "button" | "textbox" | "checkbox" | "icon" | "text";

export interface Detection {
  kind: DetectionKind;
  /** The text read on or beside it; empty when there is none (an icon) or it could not be read. */
  label: string;
  box: Box;
}
