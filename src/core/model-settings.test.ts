// How the model set in the app combines with the environment's, field by field, and what the page sees of it.
import { describe, expect, it } from "vitest";
import { loadConfig } from "./load-config.ts";
import { modelSettingsView, savedFrom, withModelSettings } from "./model-settings.ts";

const env = { MODEL_PROVIDER: "qwen", DASHSCOPE_API_KEY: "sk-dashscope-from-env-1111", OPENAI_API_KEY: "sk-openai-from-env-2222", OPENAI_MODEL: "gpt-env" };
const base = loadConfig(env);

describe("the model set in the app over the environment's", () => {
  it("takes what the person set, and the environment's for the rest of that provider", () => {
    const config = withModelSettings(base, { provider: "openai", baseUrl: "http://127.0.0.1:9000/v1" });
    expect(config.model).toMatchObject({ provider: "openai", name: "gpt-env", baseUrl: "http://127.0.0.1:9000/v1", apiKey: "sk-openai-from-env-2222" });
    expect(modelSettingsView(base, { provider: "openai", baseUrl: "http://127.0.0.1:9000/v1" }).from).toEqual({ provider: "app", model: "env", base_url: "app", key: "env" });
    expect(modelSettingsView(base, null).env_keys).toEqual(["qwen", "openai"]);
  });

  it("falls back to the provider's own default where neither names a value", () => {
    const config = withModelSettings(base, { provider: "anthropic", apiKey: "sk-ant-set-here-3333" });
    expect(config.model).toMatchObject({ provider: "anthropic", name: "claude-sonnet-5", baseUrl: "https://api.anthropic.com", apiKey: "sk-ant-set-here-3333" });
  });

  it("shows a key only as set, with its last 4 characters when it is long", () => {
    expect(modelSettingsView(base, null).key).toEqual({ set: true, last4: "1111" });
    expect(modelSettingsView(base, { provider: "qwen", apiKey: "short-key" }).key).toEqual({ set: true, last4: null });
  });

  it("keeps the saved key when a change leaves it out, and drops it when it is emptied", () => {
    const before = { provider: "qwen" as const, apiKey: "sk-saved-4444" };
    expect(savedFrom({ provider: "qwen", model: "qwen-vl-max", base_url: "" }, before)).toEqual({ provider: "qwen", name: "qwen-vl-max", apiKey: "sk-saved-4444" });
    expect(savedFrom({ provider: "qwen", model: "", base_url: "", api_key: "" }, before)).toEqual({ provider: "qwen" });
    expect(savedFrom({ provider: "openai", model: "", base_url: "" }, before)).toEqual({ provider: "openai" });
  });

  it("shows an address without its credentials, and keeps them when it comes back as shown", () => {
    const before = { provider: "qwen" as const, baseUrl: "https://user:pass@proxy.example/v1?key=secret-in-query" };
    const shown = modelSettingsView(base, before).base_url;
    expect(shown).toBe("https://proxy.example/v1");
    expect(savedFrom({ provider: "qwen", model: "", base_url: shown }, before)).toEqual(before);
  });

  it("refuses what the configuration's own schema refuses", () => {
    expect(() => withModelSettings(base, { provider: "qwen", baseUrl: "not a url" })).toThrow(/baseUrl/);
  });
});
