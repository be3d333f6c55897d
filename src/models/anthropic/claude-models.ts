// The one table of what each Claude model gets: the computer-use tool version it is trained on and
// the largest screenshot it reads. Nothing else in the adapter branches on a model name.
//
// Sources: Anthropic's computer use tool page (the 2025 versions, their beta headers and models),
// the Python SDK's `computer_toolset_20260801` types (one nameless `tools` entry with per-member
// `configs`, no beta header) and the models' pages (Claude 5 and Opus 4.8 take the toolset; the
// newest refuse the older versions and a forced `tool_choice`, which this adapter never sends).
import { fitWithin, type Size } from "../../perception/coordinates.ts";

export type ToolVersion = "computer_toolset_20260801" | "computer_20251124" | "computer_20250124";

/**
 * How a screenshot is fitted for the model: into the XGA/WXGA/FWXGA display nearest its aspect
 * ratio (what Anthropic recommended to models reading up to 1568 px and ~1.15 MP), or within a
 * long edge and a pixel count (models from Opus 4.7 on read up to 2576 px and ~3.75 MP, and
 * answer in that image's pixels one to one).
 */
export type ImageLimit = { fit: "recommended_displays" } | { fit: "within"; longEdge: number; pixels: number };

export interface ClaudeModel {
  tool: ToolVersion;
  image: ImageLimit;
}

const LARGE: ImageLimit = { fit: "within", longEdge: 2576, pixels: 3_750_000 };
const RECOMMENDED: ImageLimit = { fit: "recommended_displays" };

/** First match wins; names are matched with `-` or `.` between the numbers (`opus-4-5`, `opus-4.5`), after any `vendor/` prefix. */
const MODELS: { names: RegExp; model: ClaudeModel }[] = [
  { names: /(opus|sonnet|haiku)-5\b|opus-4-8/, model: { tool: "computer_toolset_20260801", image: LARGE } },
  { names: /opus-4-7/, model: { tool: "computer_20251124", image: LARGE } },
  { names: /opus-4-[56]|sonnet-4-6/, model: { tool: "computer_20251124", image: RECOMMENDED } },
];
/** Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4, Opus 4, Sonnet 3.7, and names we do not know. */
const OLDER: ClaudeModel = { tool: "computer_20250124", image: RECOMMENDED };

export function claudeModel(name: string): ClaudeModel {
  const normalized = name.toLowerCase().replace(/(\d)\.(\d)/g, "$1-$2");
  return MODELS.find((row) => row.names.test(normalized))?.model ?? OLDER;
}

// The display sizes Anthropic recommends, by aspect ratio: XGA, WXGA and FWXGA.
const DISPLAYS: Size[] = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
];

/** The size a screenshot of this size is sent at; the model's coordinates are in this image's pixels. */
export function imageSizeFor(model: ClaudeModel, screenshot: Size): Size {
  if (model.image.fit === "within") {
    const { longEdge, pixels } = model.image;
    const scale = Math.min(1, longEdge / Math.max(screenshot.width, screenshot.height), Math.sqrt(pixels / (screenshot.width * screenshot.height)));
    return { width: Math.max(1, Math.floor(screenshot.width * scale)), height: Math.max(1, Math.floor(screenshot.height * scale)) };
  }
  const aspect = screenshot.width / screenshot.height;
  const display = DISPLAYS.reduce((best, d) => (Math.abs(d.width / d.height - aspect) < Math.abs(best.width / best.height - aspect) ? d : best));
  return fitWithin(screenshot, display);
}
