// Which answer format and coordinate convention a model speaks, by its name, as the provider
// table (protocol/providers.ts) says it; MODEL_DIALECT and MODEL_GRID override what a name implies.
import type { Dialect, GridName } from "../core/config.ts";
import { gridOf, type Grid, type SmartResizeOptions } from "../perception/grids.ts";
import { modelFacts } from "../protocol/index.ts";

export interface ModelSpeech {
  /** The answer format under MODEL_PROVIDER=qwen. */
  dialect: Dialect;
  grid: Grid;
}

/** UI-TARS 1.5's processor (@ui-tars/shared): factor 28, 100 to 16384 patches. */
const UITARS_15_RESIZE: SmartResizeOptions = { factor: 28, minPixels: 100 * 28 * 28, maxPixels: 16384 * 28 * 28 };

/** What a model of this name speaks under MODEL_PROVIDER=qwen, with the person's overrides. */
export function speechOf(model: string, overrides: { dialect?: Dialect; grid?: GridName } = {}): ModelSpeech {
  const facts = modelFacts("qwen", model);
  return { dialect: overrides.dialect ?? facts.dialect ?? "json", grid: gridOf(overrides.grid ?? facts.grid) };
}

/** UI-TARS by version: 1.0 and Doubao's answer on 0–1000, 1.5 in its smart-resized image's pixels. */
export function uitarsGrid(version: "1.0" | "1.5" | "doubao-1.5-15B" | "doubao-1.5-20B", override?: GridName): Grid {
  if (override) return gridOf(override, UITARS_15_RESIZE);
  return version === "1.5" ? gridOf("smart_resize", UITARS_15_RESIZE) : gridOf("norm1000");
}
