// One exchange with an OpenAI-compatible model whose answer must parse: an unusable answer goes
// back to the model with the reason, at most `repairRetries` times, then the task fails with it.
import { AppError } from "../../core/errors.ts";
import type { Usage } from "../../protocol/index.ts";
import { chatCompletion, type ChatEndpoint, type ChatMessage } from "./chat-completions.ts";

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export interface AskOptions extends ChatEndpoint {
  model: string;
  jsonMode: boolean;
  repairRetries: number;
  /** What to say to the model when its answer could not be used. */
  repairRequest(error: string): string;
}

export async function askWithRepair<T>(
  options: AskOptions,
  messages: ChatMessage[],
  parse: (text: string) => Parsed<T>,
  signal: AbortSignal,
): Promise<{ value: T; usage: Usage }> {
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let lastError = "";
  for (let attempt = 0; attempt <= options.repairRetries; attempt++) {
    const reply = await chatCompletion(
      options,
      { model: options.model, messages, ...(options.jsonMode ? { response_format: { type: "json_object" as const } } : {}) },
      signal,
    );
    usage.input_tokens += reply.usage.input_tokens;
    usage.output_tokens += reply.usage.output_tokens;
    const parsed = parse(reply.content);
    if (parsed.ok) return { value: parsed.value, usage };
    lastError = parsed.error;
    messages.push({ role: "assistant", content: reply.content }, { role: "user", content: options.repairRequest(parsed.error) });
  }
  throw new AppError("PLANNER_INVALID_OUTPUT", `The model's answer was still unusable after ${options.repairRetries} retries: ${lastError}`);
}
