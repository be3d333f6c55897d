// The provider table: names resolve to the rows people expect, every row's examples resolve to
// their own row, and the README's model table names what the table says.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MODEL_PROVIDERS, modelFacts, PROVIDER_TABLE, type ModelFacts } from "./providers.ts";

const rows = MODEL_PROVIDERS.flatMap((provider) => (PROVIDER_TABLE[provider].models as readonly ModelFacts[]).map((row) => ({ provider, row })));
const modelNames = rows.flatMap(({ provider, row }) => row.examples.filter((e) => !e.includes(" ")).map((name) => ({ provider, name, row })));

describe("the provider table", () => {
  it.each(modelNames.map(({ provider, name, row }) => [provider, name, row] as const))("gives %s's %s its own row", (provider, name, row) => {
    expect(modelFacts(provider, name)).toBe(row);
  });

  it("reads names as people write them: vendor prefixes, dots or dashes, any case", () => {
    expect(modelFacts("anthropic", "anthropic/Claude-Opus-4.7").tool).toBe("computer_20251124");
    expect(modelFacts("qwen", "Qwen/Qwen2.5-VL-7B-Instruct").grid).toBe("smart_resize");
    expect(modelFacts("gemini", "models/gemini-3.5-flash").tool).toBe("2026");
    expect(modelFacts("gemini", "gemini-3-flash-preview").tool).toBe("2025");
    expect(modelFacts("openai", "computer-use-preview-2025-03-11").tool).toBe("computer_use_preview");
  });

  it("lets every provider's default model, example names and tool versions be found in the README's model table", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const models = readme.slice(readme.indexOf("## Models"), readme.indexOf("## The chat UI"));
    for (const provider of MODEL_PROVIDERS) {
      expect(models, provider).toContain(`\`${PROVIDER_TABLE[provider].model}\` (default)`);
    }
    for (const { name } of modelNames) expect(models).toContain(`\`${name}\``);
    for (const { row } of rows) if (row.tool && !/^\d+$/.test(row.tool)) expect(models).toContain(`\`${row.tool}\``);
  });
});
