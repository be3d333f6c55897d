// One question to the chat model whose answer must be a JSON object of a known shape (act's and
// fillForm's element choice, extract's data). An unusable answer goes back with the reason once.
import type { z } from "zod";
import type { ChatTurn } from "../models/chat/chat-model.ts";
import { extractJson } from "../models/json-planner/parse.ts";
import type { ToolContext } from "./tool.ts";

export type Answer<T> = { ok: true; value: T } | { ok: false; error: string };

/** Asks, and reports the tokens every attempt used through `spend`. */
export async function askJson<T>(
  ctx: Pick<ToolContext, "model" | "signal" | "spend">,
  system: string,
  question: string,
  validate: (value: unknown) => Answer<T>,
): Promise<Answer<T>> {
  const turns: ChatTurn[] = [{ role: "user", text: question }];
  let answer: Answer<T> = { ok: false, error: "no answer" };
  for (let attempt = 0; attempt < 2; attempt++) {
    let text = "";
    for await (const event of ctx.model.stream({ system, turns, tools: [] }, ctx.signal)) {
      if (event.type === "delta") text += event.text;
      else if (event.type === "done") ctx.spend(event.usage);
    }
    const json = extractJson(text);
    answer = json.ok ? validate(json.value) : { ok: false, error: json.error };
    if (answer.ok) return answer;
    if (text.trim()) turns.push({ role: "assistant", text, toolCalls: [] });
    turns.push({ role: "user", text: `That answer could not be used: ${answer.error}. Answer again with one JSON object only.` });
  }
  return answer;
}

/** Validation through a zod schema, with the first issue as the reason. */
export function withSchema<S extends z.ZodType>(schema: S): (value: unknown) => Answer<z.infer<S>> {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue?.path.join(".") || "answer"}: ${issue?.message}` };
  };
}
