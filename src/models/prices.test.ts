import { describe, expect, it } from "vitest";
import { loadConfig } from "../core/load-config.ts";
import { addCosts } from "../protocol/money.ts";
import { costUsd, priceName, priceTable } from "./prices.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

function priceFile(rows: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "prices-")), "prices.json");
  writeFileSync(file, typeof rows === "string" ? rows : JSON.stringify(rows));
  return file;
}

describe("prices", () => {
  it("reads a model's name however the run labels it", () => {
    expect(priceName("anthropic:claude-sonnet-5.5 (replay)")).toBe("claude-sonnet-5-5");
    expect(priceName("openrouter/Claude-Opus-5")).toBe("claude-opus-5");
  });

  it("prices input and output tokens per million", () => {
    expect(costUsd("anthropic:claude-sonnet-5", { input_tokens: 1_000_000, output_tokens: 100_000 })).toBeCloseTo(3);
    expect(costUsd("claude-opus-5-5", { input_tokens: 500, output_tokens: 50 })).toBeCloseTo(0.003);
    expect(costUsd("openai:gpt-5.4-mini", { input_tokens: 1_000_000, output_tokens: 0 })).toBeCloseTo(0.75);
    expect(costUsd("openai:gpt-5.4", { input_tokens: 1_000_000, output_tokens: 0 })).toBeCloseTo(2.5);
    expect(costUsd("gemini:gemini-2.5-computer-use-preview-10-2025", { input_tokens: 0, output_tokens: 1_000_000 })).toBeCloseTo(10);
  });

  it("has no price, not a zero one, for a model it does not know; nothing spent costs nothing", () => {
    expect(costUsd("qwen:some-local-model", { input_tokens: 10, output_tokens: 10 })).toBeNull();
    expect(costUsd("uitars:ui-tars-1.5-7b", { input_tokens: 10, output_tokens: 10 })).toBeNull();
    expect(costUsd("uitars:ui-tars-1.5-7b", { input_tokens: 0, output_tokens: 0 })).toBe(0);
    expect(addCosts(0.1, null)).toBeNull();
    expect(addCosts(0.1, 0.2)).toBeCloseTo(0.3);
  });

  it("takes MODEL_PRICES_FILE's rows before the shipped ones: names with their dated snapshots, and /patterns/", () => {
    const file = priceFile([
      { model: "gpt-5.4", input_per_mtok: 1, output_per_mtok: 2 },
      { model: "/^ui-tars/", input_per_mtok: 0, output_per_mtok: 0 },
    ]);
    const table = priceTable(loadConfig({ MODEL_PRICES_FILE: file }).prices);
    expect(costUsd("openai:gpt-5.4", { input_tokens: 1_000_000, output_tokens: 0 }, table)).toBeCloseTo(1);
    expect(costUsd("openai:gpt-5.4-2026-03-05", { input_tokens: 1_000_000, output_tokens: 0 }, table)).toBeCloseTo(1);
    // A name is that model, not every longer one: the mini keeps its shipped price.
    expect(costUsd("openai:gpt-5.4-mini", { input_tokens: 1_000_000, output_tokens: 0 }, table)).toBeCloseTo(0.75);
    expect(costUsd("uitars:ui-tars-1.5-7b", { input_tokens: 500, output_tokens: 50 }, table)).toBe(0);
  });

  it("refuses to start on a price file it cannot use, saying what is wrong where", () => {
    expect(() => loadConfig({ MODEL_PRICES_FILE: "/nonexistent/prices.json" })).toThrow(/MODEL_PRICES_FILE \/nonexistent\/prices.json is not a readable JSON file/);
    expect(() => loadConfig({ MODEL_PRICES_FILE: priceFile("{not json") })).toThrow(/is not a readable JSON file/);
    expect(() => loadConfig({ MODEL_PRICES_FILE: priceFile({ model: "x" }) })).toThrow(/MODEL_PRICES_FILE must hold a JSON array/);
    expect(() => loadConfig({ MODEL_PRICES_FILE: priceFile([{ model: "x", input_per_mtok: -1, output_per_mtok: 1 }]) })).toThrow(/prices\.0\.input_per_mtok: must not be negative/);
    expect(() => loadConfig({ MODEL_PRICES_FILE: priceFile([{ model: "/(/", input_per_mtok: 1, output_per_mtok: 1 }]) })).toThrow(/prices\.0\.model: is not a valid regular expression/);
    expect(() => loadConfig({ MODEL_PRICES_FILE: priceFile([{ model: "x", input: 1, output_per_mtok: 1 }]) })).toThrow(/prices\.0/);
  });
});
