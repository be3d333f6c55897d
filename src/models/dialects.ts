// Which answer format and coordinate convention a model speaks, by its name: one table of name
// patterns, first match wins; MODEL_DIALECT and MODEL_GRID override what a name implies.
import type { Dialect, GridName } from "../core/config.ts";
import { gridOf, type Grid, type SmartResizeOptions } from "../perception/grids.ts";

export interface ModelSpeech {
  /** The answer format under MODEL_PROVIDER=qwen. */
  dialect: Dialect;
  grid: Grid;
}

interface Row {
  pattern: RegExp;
  dialect: Dialect;
  grid: GridName;
  resize?: SmartResizeOptions;
}

/** UI-TARS 1.5's processor (@ui-tars/shared): factor 28, 100 to 16384 patches. */
const UITARS_15_RESIZE: SmartResizeOptions = { factor: 28, minPixels: 100 * 28 * 28, maxPixels: 16384 * 28 * 28 };

const TABLE: Row[] = [
  // Qwen3-VL answers in its computer_use calls on a 0–1000 grid (Qwen3-VL cookbooks, DashScope's GUI prompt).
  { pattern: /qwen3[-_.]?vl/i, dialect: "qwen3-vl", grid: "norm1000" },
  // GLM-4.5V answers in its published desktop action space, in thousandths (zai-org/GLM-V).
  { pattern: /glm-4\.5v/i, dialect: "glm-4.5v", grid: "norm999" },
  // Qwen2.5-VL names absolute pixels of the image as its processor resized it.
  { pattern: /qwen2\.5[-_.]?vl/i, dialect: "json", grid: "smart_resize" },
];

const DEFAULT: Row = { pattern: /.*/, dialect: "json", grid: "pixels" };

/** What a model of this name speaks, with the person's overrides. */
export function speechOf(model: string, overrides: { dialect?: Dialect; grid?: GridName } = {}): ModelSpeech {
  const row = TABLE.find((r) => r.pattern.test(model)) ?? DEFAULT;
  return { dialect: overrides.dialect ?? row.dialect, grid: gridOf(overrides.grid ?? row.grid, row.resize) };
}

/** UI-TARS by version: 1.0 and Doubao's answer on 0–1000, 1.5 in its smart-resized image's pixels. */
export function uitarsGrid(version: "1.0" | "1.5" | "doubao-1.5-15B" | "doubao-1.5-20B", override?: GridName): Grid {
  if (override) return gridOf(override, UITARS_15_RESIZE);
  return version === "1.5" ? gridOf("smart_resize", UITARS_15_RESIZE) : gridOf("norm1000");
}
