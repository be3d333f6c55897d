// The chat model over the Anthropic Messages API with streaming and client tools. The stream is
// a sequence of named events: message_start (input tokens), content_block_start/delta/stop for
// text blocks (`text_delta`) and tool_use blocks (`input_json_delta`, the input's JSON in
// pieces), message_delta (output tokens), message_stop; `error` may arrive at any point. A request
// may declare a toolset (browser_toolset_20260801) in place of the tools' schemas: its members'
// tool_use blocks carry `toolset_name`, echoed on the call and on its tool_result, which holds the
// member's text or image and, unless it failed, a `browser_state` block with the open tabs.
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import type { Usage } from "../../protocol/index.ts";
import { ANTHROPIC_VERSION, attachmentBlocks } from "../anthropic/messages.ts";
import { postStream, type HttpPolicy } from "../http.ts";
import { parseJson } from "./json.ts";
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatTurn } from "./chat-model.ts";

export interface AnthropicChatOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  maxTokens: number;
  policy: HttpPolicy;
}

const eventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message_start"), message: z.object({ usage: z.object({ input_tokens: z.number() }) }) }),
  z.object({
    type: z.literal("content_block_start"),
    index: z.number().int(),
    content_block: z.object({ type: z.string(), id: z.string().optional(), name: z.string().optional(), toolset_name: z.string().optional() }),
  }),
  z.object({
    type: z.literal("content_block_delta"),
    index: z.number().int(),
    delta: z.object({ type: z.string(), text: z.string().optional(), partial_json: z.string().optional() }),
  }),
  z.object({ type: z.literal("content_block_stop"), index: z.number().int() }),
  z.object({ type: z.literal("message_delta"), usage: z.object({ output_tokens: z.number() }).nullish() }),
  z.object({ type: z.literal("message_stop") }),
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("error"), error: z.object({ type: z.string(), message: z.string() }) }),
]);
const KNOWN_EVENTS: ReadonlySet<string> = new Set(eventSchema.options.map((o) => o.shape.type.value));

export class AnthropicChat implements ChatModel {
  readonly name: string;

  constructor(private readonly options: AnthropicChatOptions) {
    this.name = options.model;
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
    const { baseUrl, apiKey, model, maxTokens, policy } = this.options;
    const body = {
      model,
      max_tokens: maxTokens,
      stream: true,
      // The system prompt is the same for every turn: cached, later turns read it cheaply.
      system: [{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }],
      messages: toMessages(request.turns),
      ...(request.tools.length > 0 || request.toolset
        ? {
            tools: request.toolset ? [request.toolset, ...request.tools.filter((t) => request.besideToolset?.includes(t.name)).map(customTool)] : request.tools.map(customTool),
            ...(request.toolChoice === "none" ? { tool_choice: { type: "none" } } : {}),
          }
        : {}),
    };
    const url = `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/messages`;
    const headers = { "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION };
    const tools = new Map<number, { id: string; name: string; json: string; toolset?: string }>();
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    for await (const { data } of postStream({ url, headers, body }, policy, signal)) {
      const json = parseJson(data);
      // Event types added to the API later are skipped; a known one that does not parse is an error.
      const type = (json as { type?: unknown } | undefined)?.type;
      if (typeof type === "string" && !KNOWN_EVENTS.has(type)) continue;
      const parsed = eventSchema.safeParse(json);
      if (!parsed.success) throw new AppError("MODEL_HTTP_ERROR", `Claude streamed an event that does not parse: ${data.slice(0, 200)}`);
      const event = parsed.data;
      switch (event.type) {
        case "message_start":
          usage.input_tokens = event.message.usage.input_tokens;
          break;
        case "content_block_start": {
          const { type: kind, id, name, toolset_name: toolset } = event.content_block;
          if (kind === "tool_use" && id && name) tools.set(event.index, { id, name, json: "", ...(toolset ? { toolset } : {}) });
          break;
        }
        case "content_block_delta": {
          const { text, partial_json } = event.delta;
          if (event.delta.type === "text_delta" && text) yield { type: "delta", text };
          const tool = tools.get(event.index);
          if (event.delta.type === "input_json_delta" && tool) tool.json += partial_json ?? "";
          break;
        }
        case "content_block_stop": {
          const tool = tools.get(event.index);
          // A tool call without input streams no JSON at all: its input is {}.
          if (tool) yield { type: "tool_call", call: { id: tool.id, name: tool.name, arguments: tool.json || "{}", ...(tool.toolset ? { toolset: tool.toolset } : {}) } };
          break;
        }
        case "message_delta":
          usage.output_tokens = event.usage?.output_tokens ?? usage.output_tokens;
          break;
        case "error": {
          const retryable = event.error.type === "overloaded_error" || event.error.type === "api_error";
          throw new AppError("MODEL_HTTP_ERROR", `Claude reported ${event.error.type} mid-stream: ${event.error.message}`, { retryable });
        }
        case "message_stop":
        case "ping":
          break;
      }
    }
    yield { type: "done", usage };
  }
}

/** Turns alternate user/assistant; tool results travel in the user turn that follows the calls. */
function toMessages(turns: ChatTurn[]) {
  type Block = Record<string, unknown>;
  const messages: { role: "user" | "assistant"; content: Block[] }[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const turn of turns) {
    switch (turn.role) {
      case "user":
        push("user", [{ type: "text", text: turn.text }, ...attachmentBlocks(turn.files ?? [])]);
        break;
      case "assistant":
        push("assistant", [
          ...(turn.text ? [{ type: "text", text: turn.text }] : []),
          ...turn.toolCalls.map((call) => ({
            type: "tool_use",
            id: call.id,
            name: call.name,
            input: inputObject(call.arguments),
            ...(call.toolset ? { toolset_name: call.toolset } : {}),
          })),
        ]);
        break;
      case "tool":
        push("user", [turn.toolset ? memberResult(turn, turn.toolset) : toolResult(turn)]);
        break;
    }
  }
  return messages;
}

type ToolTurn = Extract<ChatTurn, { role: "tool" }>;

function imageBlock(image: NonNullable<ToolTurn["image"]>) {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

function toolResult(turn: ToolTurn) {
  const content = turn.image ? [{ type: "text", text: turn.content }, imageBlock(turn.image)] : turn.content;
  return { type: "tool_result", tool_use_id: turn.toolCallId, content };
}

/**
 * A toolset member's result: its family echoed, its text (none when it is only an image or only
 * the tabs: the API refuses an empty text block), its image, and the tabs — never on a failure.
 */
function memberResult(turn: ToolTurn, toolset: NonNullable<ToolTurn["toolset"]>) {
  const state = !toolset.isError && toolset.tabs ? [{ type: "browser_state", tabs: toolset.tabs }] : [];
  const content = [...(turn.content ? [{ type: "text", text: turn.content }] : []), ...(turn.image ? [imageBlock(turn.image)] : []), ...state];
  return { type: "tool_result", tool_use_id: turn.toolCallId, toolset_name: toolset.name, content, ...(toolset.isError ? { is_error: true } : {}) };
}

function customTool(tool: ChatRequest["tools"][number]) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

/** A call whose arguments did not parse was answered with an error; its input is recorded as empty. */
function inputObject(text: string): Record<string, unknown> {
  const value = parseJson(text);
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
