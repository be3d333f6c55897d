// What a pixel detector finds: a control or a piece of text with its box in the image's pixels,
// before the list is capped, sorted and numbered for the model.
import type { Box } from "./geometry.ts";

/** A control's kind as the page's ARIA roles name it (a list's items are `option`s), or an icon or text. */
export type DetectionKind = "button" | "textbox" | "checkbox" | "radio" | "listbox" | "option" | "slider" | "icon" | "text";

export interface Detection {
  kind: DetectionKind;
  /** The text read on or beside it; empty when there is none (an icon) or it could not be read. */
  label: string;
  box: Box;
}
