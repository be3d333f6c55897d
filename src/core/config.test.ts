import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has the embedded defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8000,
      model: { provider: "qwen", jsonMode: true, timeoutMs: 90_000, repairRetries: 2 },
      limits: { maxSteps: 80, maxDurationMs: 480_000 },
      browser: { headless: true, width: 1280, height: 800 },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("reads the environment, and flags win over it", () => {
    const config = loadConfig(
      { PORT: "9000", MODEL_NAME: "qwen-vl-max", MODEL_BASE_URL: "http://127.0.0.1:1/v1", MAX_STEPS: "5", HEADLESS: "false" },
      { port: 9100 },
    );
    expect(config.port).toBe(9100);
    expect(config.model).toMatchObject({ name: "qwen-vl-max", baseUrl: "http://127.0.0.1:1/v1" });
    expect(config.limits.maxSteps).toBe(5);
    expect(config.browser.headless).toBe(false);
  });

  it("names what is wrong", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/port/);
    expect(() => loadConfig({ MODEL_PROVIDER: "nope" })).toThrow(/model.provider/);
  });

  it("reads lists from the environment, and an empty list is a setting too", () => {
    expect(loadConfig({}).agent.approvals).toEqual(["submit", "download", "external"]);
    expect(loadConfig({ APPROVALS: "submit, download" }).agent.approvals).toEqual(["submit", "download"]);
    expect(loadConfig({ APPROVALS: "none" }).agent.approvals).toEqual([]);
    expect(loadConfig({}, { agent: { approvals: [] } }).agent.approvals).toEqual([]);
    expect(() => loadConfig({ APPROVALS: "everything" })).toThrow(/agent.approvals/);
  });
});
