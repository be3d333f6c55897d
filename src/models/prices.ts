// What a model's tokens cost: US dollars per million input and output tokens, by model name. The
// shipped rows are the providers' published list prices (standard tier, the shortest context
// band, no caching or batch discount), as read on 2026-11-29; MODEL_PRICES_FILE (core/price-file.ts)
// adds rows before them. A name no row covers has no price, and its cost is null, never zero.

import { priceName, type Price } from "../core/price-file.ts";
import type { Usage } from "../protocol/entities.js";

export { priceName, type Price };

/** First match wins: a longer name before the shorter one it starts with. */
export const SHIPPED_PRICES: readonly Price[] = [
  // Anthropic, platform.claude.com/docs/en/about-claude/pricing (as collected in simonw/llm-prices data/anthropic.json).
  { names: /^claude-fable-5/, input_per_mtok: 10, output_per_mtok: 50 },
  { names: /^claude-mythos-5/, input_per_mtok: 10, output_per_mtok: 50 },
  { names: /^claude-opus-5-5/, input_per_mtok: 4, output_per_mtok: 20 },
  { names: /^claude-opus-(5|4-[5-8])/, input_per_mtok: 5, output_per_mtok: 25 },
  { names: /^claude-opus-4/, input_per_mtok: 15, output_per_mtok: 75 },
  { names: /^claude-sonnet-5/, input_per_mtok: 2, output_per_mtok: 10 },
  { names: /^claude-sonnet-4/, input_per_mtok: 3, output_per_mtok: 15 },
  { names: /^claude-haiku-4-5/, input_per_mtok: 1, output_per_mtok: 5 },
  // OpenAI, developers.openai.com/api/docs/pricing (standard, under 272K input tokens; as quoted by tokenmix.ai, 2026-06).
  { names: /^gpt-5-5-pro/, input_per_mtok: 30, output_per_mtok: 180 },
  { names: /^gpt-5-4-pro/, input_per_mtok: 30, output_per_mtok: 180 },
  { names: /^gpt-5-5/, input_per_mtok: 5, output_per_mtok: 30 },
  { names: /^gpt-5-4-mini/, input_per_mtok: 0.75, output_per_mtok: 4.5 },
  { names: /^gpt-5-4-nano/, input_per_mtok: 0.2, output_per_mtok: 1.25 },
  { names: /^gpt-5-4/, input_per_mtok: 2.5, output_per_mtok: 15 },
  { names: /^gpt-4-1-mini/, input_per_mtok: 0.4, output_per_mtok: 1.6 },
  { names: /^gpt-4-1-nano/, input_per_mtok: 0.1, output_per_mtok: 0.4 },
  { names: /^gpt-4-1/, input_per_mtok: 2, output_per_mtok: 8 },
  // OpenAI's computer-use model, platform.openai.com/docs/models/computer-use-preview.
  { names: /^computer-use-preview/, input_per_mtok: 3, output_per_mtok: 12 },
  // Google, ai.google.dev/gemini-api/docs/pricing (standard, prompts up to 200K; 3.5 Flash as announced 2026-05-19).
  { names: /^gemini-3-5-flash/, input_per_mtok: 1.5, output_per_mtok: 9 },
  { names: /^gemini-3-flash/, input_per_mtok: 0.5, output_per_mtok: 3 },
  { names: /^gemini-2-5-computer-use-preview/, input_per_mtok: 1.25, output_per_mtok: 10 },
  { names: /^gemini-2-5-pro/, input_per_mtok: 1.25, output_per_mtok: 10 },
  { names: /^gemini-2-5-flash-lite/, input_per_mtok: 0.1, output_per_mtok: 0.4 },
  { names: /^gemini-2-5-flash/, input_per_mtok: 0.3, output_per_mtok: 2.5 },
  // Alibaba Cloud Model Studio (DashScope): no list price could be read here for its Qwen models, so
  // they have none until MODEL_PRICES_FILE gives one; a wrong price would be worse than none.
  // Z.ai, docs.z.ai/guides/overview/pricing (GLM-4.5V).
  { names: /^glm-4-5v/, input_per_mtok: 0.6, output_per_mtok: 1.8 },
  // UI-TARS and OpenCUA are open weights that people serve themselves: no list price. A price file
  // row such as `{"model": "/^ui-tars/", "input_per_mtok": 0, "output_per_mtok": 0}` says what they cost.
];

/** The price rows in force: the file's before the shipped ones. */
export function priceTable(fromFile: readonly Price[]): readonly Price[] {
  return [...fromFile, ...SHIPPED_PRICES];
}

export function priceOf(model: string, table: readonly Price[] = SHIPPED_PRICES): Price | null {
  const name = priceName(model);
  return table.find((row) => row.names.test(name)) ?? null;
}

/** The money a call's tokens cost: null when the model has no price; 0 when no token was spent, whatever the model. */
export function costUsd(model: string, usage: Usage, table: readonly Price[] = SHIPPED_PRICES): number | null {
  if (usage.input_tokens + usage.output_tokens === 0) return 0;
  const price = priceOf(model, table);
  if (!price) return null;
  return (usage.input_tokens * price.input_per_mtok + usage.output_tokens * price.output_per_mtok) / 1_000_000;
}
