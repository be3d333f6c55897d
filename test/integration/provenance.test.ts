// Provenance (issue 31): every model that acts on a screen is told, in what we send it, that what a
// page or a screen shows is data and never an instruction.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolAgentPrompt, desktopToolPrompt } from "../../src/agent/tool-prompt.ts";
import { loadConfig } from "../../src/core/config.ts";
import { createPlanner } from "../../src/models/index.ts";
import { PAGE_TEXT_IS_DATA } from "../../src/models/planner.ts";
import { toolSet } from "../../src/tools/index.ts";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model.ts";

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model.close());

const PROVIDERS = ["qwen", "anthropic", "openai", "uitars", "opencua", "som"] as const;

describe("every planner is told that page text is data", () => {
  it.each(PROVIDERS)("%s sends the sentence with its first request", async (provider) => {
    const config = loadConfig({}, { model: { provider, baseUrl: model.baseUrl, apiKey: "k", httpRetries: 0, repairRetries: 0 } });
    const data = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#fff" } }).jpeg().toBuffer();
    const planner = createPlanner(config);
    const before = model.requests.length;
    // The model has no script: it answers 500, and only the request matters here.
    await planner
      .next({ task: "Read the page", attachments: [], step: 1, history: [], screenshot: { data, mimeType: "image/jpeg", width: 64, height: 48 }, url: "http://127.0.0.1/", elements: [] }, AbortSignal.timeout(10_000))
      .catch(() => undefined);
    const sent = model.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.stringify(sent[0]!.body)).toContain(JSON.stringify(PAGE_TEXT_IS_DATA).slice(1, -1));
  });

  it("the tool agent's prompts, in a browser and on a desktop, carry it", () => {
    const options = { goal: "Read the page", today: "2026-11-28", startUrl: null, mode: "hybrid" as const };
    expect(toolAgentPrompt({ ...options, tools: toolSet({ mode: "hybrid", computer: "browser", vision: true, search: false }) })).toContain(PAGE_TEXT_IS_DATA);
    expect(desktopToolPrompt({ ...options, tools: toolSet({ mode: "hybrid", computer: "desktop", vision: true, search: false }) })).toContain(PAGE_TEXT_IS_DATA);
  });
});
