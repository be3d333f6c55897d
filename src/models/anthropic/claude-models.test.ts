// Which tool version and image size each Claude model gets, by its name as people write it.
import { describe, expect, it } from "vitest";
import { claudeModel, imageSizeFor } from "./claude-models.ts";

describe("the Claude model table", () => {
  it("gives the toolset to the newest models, computer_20251124 to Opus 4.5 to 4.7 and Sonnet 4.6, and computer_20250124 to the rest", () => {
    const tools = (names: string[]) => names.map((name) => claudeModel(name).tool);
    expect(tools(["claude-opus-5", "claude-opus-5-5", "claude-sonnet-5", "anthropic/claude-sonnet-5-20260801", "claude-opus-4-8", "claude-fable-5-1"])).toEqual(Array(6).fill("computer_toolset_20260801"));
    expect(tools(["claude-opus-4-7", "claude-opus-4.6", "claude-opus-4-5-20251101", "claude-sonnet-4-6"])).toEqual(Array(4).fill("computer_20251124"));
    expect(tools(["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-20250514", "claude-opus-4-20250514", "claude-3-7-sonnet-latest", "claude-test"])).toEqual(Array(7).fill("computer_20250124"));
  });

  it("sends the screen as it is to models that read large images, within 2576 px and ~3.75 MP", () => {
    const opus5 = claudeModel("claude-opus-5");
    expect(imageSizeFor(opus5, { width: 1280, height: 800 })).toEqual({ width: 1280, height: 800 });
    expect(imageSizeFor(opus5, { width: 1920, height: 1080 })).toEqual({ width: 1920, height: 1080 });
    expect(imageSizeFor(opus5, { width: 2880, height: 1800 })).toEqual({ width: 2449, height: 1530 });
    expect(imageSizeFor(claudeModel("claude-opus-4-7"), { width: 5120, height: 1440 })).toEqual({ width: 2576, height: 724 });
  });

  it("fits the screen into the recommended display nearest its shape for the others", () => {
    expect(imageSizeFor(claudeModel("claude-sonnet-4-5"), { width: 1600, height: 1000 })).toEqual({ width: 1280, height: 800 });
    expect(imageSizeFor(claudeModel("claude-sonnet-4-6"), { width: 1920, height: 1080 })).toEqual({ width: 1365, height: 768 });
    expect(imageSizeFor(claudeModel("claude-opus-4-1"), { width: 1024, height: 768 })).toEqual({ width: 1024, height: 768 });
  });
});
