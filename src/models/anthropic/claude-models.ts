// What each Claude model gets — the computer-use tool version it is trained on and the largest
// screenshot it reads — as the provider table (protocol/providers.ts) says it. Nothing else in the
// adapter branches on a model name.
import { fitWithin, type Size } from "../../perception/coordinates.ts";
import { modelFacts, type ImageLimit } from "../../protocol/index.ts";

export type ToolVersion = "computer_toolset_20260801" | "computer_20251124" | "computer_20250124";

export interface ClaudeModel {
  tool: ToolVersion;
  image: ImageLimit;
}

const TOOLS: readonly string[] = ["computer_toolset_20260801", "computer_20251124", "computer_20250124"] satisfies ToolVersion[];

export function claudeModel(name: string): ClaudeModel {
  const facts = modelFacts("anthropic", name);
  if (!facts.tool || !TOOLS.includes(facts.tool)) throw new Error(`the provider table gives ${name} no computer tool version this adapter speaks`);
  return { tool: facts.tool as ToolVersion, image: facts.image };
}

// The display sizes Anthropic recommends, by aspect ratio: XGA, WXGA and FWXGA.
const DISPLAYS: Size[] = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
];

/** The size a screenshot of this size is sent at; the model's coordinates are in this image's pixels. Null: MODEL_IMAGE_MAX_*. */
export function imageSizeFor(model: ClaudeModel, screenshot: Size): Size | null {
  const { image } = model;
  if (image.fit === "settings") return null;
  if (image.fit === "within") {
    const scale = Math.min(1, image.longEdge / Math.max(screenshot.width, screenshot.height), Math.sqrt(image.pixels / (screenshot.width * screenshot.height)));
    return { width: Math.max(1, Math.floor(screenshot.width * scale)), height: Math.max(1, Math.floor(screenshot.height * scale)) };
  }
  const aspect = screenshot.width / screenshot.height;
  const display = DISPLAYS.reduce((best, d) => (Math.abs(d.width / d.height - aspect) < Math.abs(best.width / best.height - aspect) ? d : best));
  return fitWithin(screenshot, display);
}
