// MODEL_PRICES_FILE: a JSON list of price rows that override or extend the shipped price table
// (models/prices.ts). Read and checked once at start, with the configuration; a row that cannot
// be read stops the server with the file's name, the row and what is wrong with it.
import { readFileSync } from "node:fs";
import { z } from "zod";

export interface Price {
  /** Matched against the model's name as `priceName` writes it (lower case, no `provider:` or `vendor/` prefix, `5.5` as `5-5`). */
  names: RegExp;
  input_per_mtok: number;
  output_per_mtok: number;
}

/**
 * A row's `model`: `/…/` is a regular expression; anything else is a model's name, which also
 * covers its dated snapshots (`gpt-5.4` covers `gpt-5.4-2026-03-05`) and nothing longer.
 */
function namesOf(model: string): RegExp {
  const pattern = /^\/(.+)\/$/.exec(model.trim());
  if (pattern) return new RegExp(pattern[1]!);
  const name = priceName(model).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${name}(-\\d{4}-?\\d{2}-?\\d{2}|-\\d{8})?$`);
}

/** The model's name as the price rows match it: `anthropic:claude-sonnet-5.5 (replay)` → `claude-sonnet-5-5`. */
export function priceName(model: string): string {
  return model
    .toLowerCase()
    .replace(/\s*\(.*\)\s*$/, "")
    .replace(/^[a-z0-9_-]+:/, "")
    .replace(/^.*\//, "")
    .replace(/(\d)\.(\d)/g, "$1-$2");
}

const dollars = z.number({ error: "must be a number of US dollars per million tokens" }).nonnegative("must not be negative").finite();

const priceRow = z
  .object({
    model: z
      .string({ error: "must be a model's name or a /regular expression/" })
      .min(1, "must be a model's name or a /regular expression/")
      .refine((model) => {
        try {
          namesOf(model);
          return true;
        } catch {
          return false;
        }
      }, "is not a valid regular expression"),
    input_per_mtok: dollars,
    output_per_mtok: dollars,
  })
  .strict()
  .transform((row): Price => ({ names: namesOf(row.model), input_per_mtok: row.input_per_mtok, output_per_mtok: row.output_per_mtok }));

/** MODEL_PRICES_FILE: the path of a JSON array of `{model, input_per_mtok, output_per_mtok}`; an array itself in tests. */
export const priceFileSchema = z.preprocess((value, ctx) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(readFileSync(value, "utf8"));
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `MODEL_PRICES_FILE ${value} is not a readable JSON file: ${(error as Error).message}` });
    return z.NEVER;
  }
}, z.array(priceRow, { error: "MODEL_PRICES_FILE must hold a JSON array of {model, input_per_mtok, output_per_mtok}" }));
