// One question to the chat model whose answer must be a JSON object of a known shape (act's and
// fillForm's element choice, extract's data), asked through the conversation loop: an unusable
// answer goes back with the reason once.
import type { z } from "zod";
import { askForJson, firstIssue, type Checked } from "../models/chat/conversation.ts";
import type { ToolContext } from "./tool.ts";

export type Answer<T> = Checked<T>;

/** Asks, and reports the tokens every attempt used through `spend`. */
export function askJson<T>(
  ctx: Pick<ToolContext, "model" | "progress" | "spend">,
  system: string,
  question: string,
  validate: (value: unknown) => Answer<T>,
): Promise<Answer<T>> {
  return askForJson(ctx.model, { system, question, validate, signal: ctx.progress.signal, onUsage: ctx.spend });
}

/** Validation through a zod schema, with the first issue as the reason. */
export function withSchema<S extends z.ZodType>(schema: S): (value: unknown) => Answer<z.infer<S>> {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: firstIssue(parsed.error, "answer") };
  };
}
