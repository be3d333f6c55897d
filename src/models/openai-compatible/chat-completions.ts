// A minimal client for OpenAI-compatible `POST /chat/completions` (DashScope compatible mode,
// vLLM, Ollama, OpenAI itself): one request, one assistant message back, typed errors.
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import type { Usage } from "../../protocol/index.ts";

export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ContentPart[] }
  | { role: "assistant"; content: string };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  response_format?: { type: "json_object" };
  temperature?: number;
  max_tokens?: number;
}

export interface ChatEndpoint {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

const replySchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }) }))
    .min(1, "the reply has no choices"),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
});

/** Sends one request; rejects with the signal's reason when stopped, or with an AppError. */
export async function chatCompletion(
  endpoint: ChatEndpoint,
  request: ChatRequest,
  signal: AbortSignal,
): Promise<{ content: string; usage: Usage }> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({ ...request, stream: false }),
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    throw failure(error, signal, timeout, endpoint, url);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw failure(error, signal, timeout, endpoint, url);
  }
  if (!response.ok) {
    const retryable = response.status === 429 || response.status >= 500;
    throw new AppError("MODEL_HTTP_ERROR", `The model endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`, {
      retryable,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError("MODEL_HTTP_ERROR", `The model endpoint answered something that is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = replySchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError("MODEL_HTTP_ERROR", `The model endpoint's reply is not a chat completion: ${parsed.error.issues[0]?.message}`);
  }
  return {
    content: parsed.data.choices[0]?.message.content ?? "",
    usage: {
      input_tokens: parsed.data.usage?.prompt_tokens ?? 0,
      output_tokens: parsed.data.usage?.completion_tokens ?? 0,
    },
  };
}

function failure(error: unknown, signal: AbortSignal, timeout: AbortSignal, endpoint: ChatEndpoint, url: string): unknown {
  if (signal.aborted) return signal.reason;
  if (timeout.aborted) {
    return new AppError("MODEL_TIMEOUT", `The model did not answer within ${endpoint.timeoutMs / 1000} s (${url}).`, {
      retryable: true,
    });
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
  return new AppError("MODEL_UNREACHABLE", `Could not reach the model at ${url}: ${cause}`, { retryable: true, cause: error });
}
