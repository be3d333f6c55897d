// What a model's tokens cost: US dollars per million input and output tokens, by model name. The
// shipped rows are the providers' published list prices; a file named by a setting can add to
// them or override them. A name no row covers has no price, and its cost is null, never zero.

import type { Usage } from "../protocol/entities.js";

export interface Price {
  /** Matched lower-cased against the model's name after any `provider:` or `vendor/` prefix. */
  names: RegExp;
  input_per_mtok: number;
  output_per_mtok: number;
}

/** First match wins. */
export const SHIPPED_PRICES: readonly Price[] = [
  { names: /^claude-fable-5/, input_per_mtok: 10, output_per_mtok: 50 },
  { names: /^claude-opus-5-5/, input_per_mtok: 4, output_per_mtok: 20 },
  { names: /^claude-opus-5/, input_per_mtok: 5, output_per_mtok: 25 },
  { names: /^claude-sonnet-5/, input_per_mtok: 2, output_per_mtok: 10 },
  { names: /^claude-haiku-4-5/, input_per_mtok: 1, output_per_mtok: 5 },
];

/** The model's name as the price rows match it: `anthropic:claude-sonnet-5.5 (replay)` → `claude-sonnet-5-5`. */
export function priceName(model: string): string {
  return model
    .toLowerCase()
    .replace(/\s*\(.*\)\s*$/, "")
    .replace(/^[a-z0-9_-]+:/, "")
    .replace(/^.*\//, "")
    .replace(/(\d)\.(\d)/g, "$1-$2");
}

export function priceOf(model: string, table: readonly Price[] = SHIPPED_PRICES): Price | null {
  const name = priceName(model);
  return table.find((row) => row.names.test(name)) ?? null;
}

/** The money a call's tokens cost, or null when the model has no price. */
export function costUsd(model: string, usage: Usage, table: readonly Price[] = SHIPPED_PRICES): number | null {
  const price = priceOf(model, table);
  if (!price) return null;
  return (usage.input_tokens * price.input_per_mtok + usage.output_tokens * price.output_per_mtok) / 1_000_000;
}
