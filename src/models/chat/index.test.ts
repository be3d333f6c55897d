import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/load-config.ts";
import { chatTakesImages } from "./index.ts";

describe("whether the chat model takes images", () => {
  it("follows AGENT_VISION, except for the text-only qwen-plus that UI-TARS and OpenCUA chat through", () => {
    expect(chatTakesImages(loadConfig({}))).toBe(true);
    expect(chatTakesImages(loadConfig({ AGENT_VISION: "false" }))).toBe(false);
    expect(chatTakesImages(loadConfig({ MODEL_PROVIDER: "anthropic" }))).toBe(true);
    expect(chatTakesImages(loadConfig({ MODEL_PROVIDER: "uitars" }))).toBe(false);
    expect(chatTakesImages(loadConfig({ MODEL_PROVIDER: "opencua", CHAT_MODEL: "qwen-vl-max" }))).toBe(true);
    expect(chatTakesImages(loadConfig({ MODEL_PROVIDER: "opencua", CHAT_MODEL: "qwen-max-latest" }))).toBe(false);
  });
});
