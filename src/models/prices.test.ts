import { describe, expect, it } from "vitest";
import { costUsd, priceName } from "./prices.js";

describe("prices", () => {
  it("reads a model's name however the run labels it", () => {
    expect(priceName("anthropic:claude-sonnet-5.5 (replay)")).toBe("claude-sonnet-5-5");
    expect(priceName("openrouter/Claude-Opus-5")).toBe("claude-opus-5");
  });

  it("prices input and output tokens per million", () => {
    expect(costUsd("anthropic:claude-sonnet-5", { input_tokens: 1_000_000, output_tokens: 100_000 })).toBeCloseTo(3);
    expect(costUsd("claude-opus-5-5", { input_tokens: 500, output_tokens: 50 })).toBeCloseTo(0.003);
  });

  it("has no price, not a zero one, for a model it does not know", () => {
    expect(costUsd("qwen:some-local-model", { input_tokens: 10, output_tokens: 10 })).toBeNull();
  });
});
