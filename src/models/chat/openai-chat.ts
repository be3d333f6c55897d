// The chat model over OpenAI Chat Completions with streaming and function tools — OpenAI itself,
// DashScope's compatible mode, vLLM, Ollama. Chunks carry text in `delta.content` and tool calls
// in pieces under `delta.tool_calls[i]` (id and name first, then the arguments' text).
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import type { Usage } from "../../protocol/index.ts";
import { attachmentParts } from "../attachments.ts";
import { postStream, type HttpPolicy } from "../http.ts";
import { parseJson } from "./json.ts";
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatTurn, ToolCall } from "./chat-model.ts";

export interface OpenAIChatOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  policy: HttpPolicy;
}

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().min(0).max(63),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
  error: z.object({ message: z.string() }).loose().nullish(),
});

export class OpenAIChat implements ChatModel {
  readonly name: string;

  constructor(private readonly options: OpenAIChatOptions) {
    this.name = options.model;
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
    const { baseUrl, apiKey, model, policy } = this.options;
    const body = {
      model,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "system", content: request.system }, ...toMessages(request.turns)],
      ...(request.tools.length > 0
        ? { tools: request.tools.map((tool) => ({ type: "function", function: tool })), tool_choice: request.toolChoice ?? "auto" }
        : {}),
    };
    const calls: { id: string; name: string; arguments: string }[] = [];
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    const events = postStream(
      { url: `${baseUrl.replace(/\/+$/, "")}/chat/completions`, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, body },
      policy,
      signal,
    );
    for await (const { data } of events) {
      if (data === "[DONE]") break;
      const chunk = chunkSchema.safeParse(parseJson(data));
      if (!chunk.success) throw new AppError("MODEL_HTTP_ERROR", `The model streamed a chunk that is not a chat completion chunk: ${data.slice(0, 200)}`);
      if (chunk.data.error) throw new AppError("MODEL_HTTP_ERROR", `The model endpoint reported an error mid-stream: ${chunk.data.error.message}`);
      if (chunk.data.usage) {
        usage.input_tokens = chunk.data.usage.prompt_tokens ?? 0;
        usage.output_tokens = chunk.data.usage.completion_tokens ?? 0;
      }
      const delta = chunk.data.choices[0]?.delta;
      if (delta?.content) yield { type: "delta", text: delta.content };
      for (const piece of delta?.tool_calls ?? []) {
        const call = (calls[piece.index] ??= { id: "", name: "", arguments: "" });
        call.id ||= piece.id ?? "";
        call.name += piece.function?.name ?? "";
        call.arguments += piece.function?.arguments ?? "";
      }
    }
    for (const [index, call] of calls.entries()) {
      if (!call) continue;
      yield { type: "tool_call", call: { ...call, id: call.id || `call_${index}` } };
    }
    yield { type: "done", usage };
  }
}

/**
 * Chat Completions takes no images in tool messages: a tool's image follows, after all the tool
 * messages of that assistant turn, as a user message that names the call it came from.
 */
function toMessages(turns: ChatTurn[]) {
  const messages: Record<string, unknown>[] = [];
  let images: { type: string; text?: string; image_url?: { url: string } }[] = [];
  const flush = () => {
    if (images.length > 0) messages.push({ role: "user", content: images });
    images = [];
  };
  for (const turn of turns) {
    if (turn.role !== "tool") flush();
    messages.push(toMessage(turn));
    if (turn.role === "tool" && turn.image) {
      images.push(
        { type: "text", text: `The image returned by ${turn.name} (${turn.toolCallId}):` },
        { type: "image_url", image_url: { url: `data:${turn.image.mimeType};base64,${turn.image.data}` } },
      );
    }
  }
  flush();
  return messages;
}

function toMessage(turn: ChatTurn): Record<string, unknown> {
  switch (turn.role) {
    case "user": {
      if (!turn.files?.length) return { role: "user", content: turn.text };
      const files = attachmentParts(turn.files).map((part) =>
        part.type === "text" ? { type: "text", text: part.text } : { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
      );
      return { role: "user", content: [{ type: "text", text: turn.text }, ...files] };
    }
    case "assistant":
      return {
        role: "assistant",
        content: turn.text || null,
        ...(turn.toolCalls.length > 0 ? { tool_calls: turn.toolCalls.map(toToolCall) } : {}),
      };
    case "tool":
      return { role: "tool", tool_call_id: turn.toolCallId, content: turn.content };
  }
}

function toToolCall(call: ToolCall) {
  return { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } };
}
