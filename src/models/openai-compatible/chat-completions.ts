// A minimal client for OpenAI-compatible `POST /chat/completions` (DashScope compatible mode,
// vLLM, Ollama, OpenAI itself): one request, one assistant message back.
import { z } from "zod";
import { postJson, type HttpPolicy } from "../http.ts";
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
  policy: HttpPolicy;
}

const replySchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }) }))
    .min(1, "the reply has no choices"),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
});

/** Sends one request (with the shared retry policy); rejects with the signal's reason when stopped, or with an AppError. */
export async function chatCompletion(
  endpoint: ChatEndpoint,
  request: ChatRequest,
  signal: AbortSignal,
): Promise<{ content: string; usage: Usage }> {
  const reply = await postJson(
    {
      url: `${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`,
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      body: { ...request, stream: false },
      reply: replySchema,
      notReply: "The model endpoint's reply is not a chat completion",
    },
    endpoint.policy,
    signal,
  );
  return {
    content: reply.choices[0]?.message.content ?? "",
    usage: {
      input_tokens: reply.usage?.prompt_tokens ?? 0,
      output_tokens: reply.usage?.completion_tokens ?? 0,
    },
  };
}
