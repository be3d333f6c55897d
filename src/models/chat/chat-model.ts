// The chat model of seed 004 §5 (its LlmGateway): a conversation and the tools it may call go
// in; text deltas, tool calls and the token count come out as a stream. The chat assistant
// (agent/chat-agent.ts) speaks only this; each provider's file translates its wire protocol.
import type { Usage } from "../../protocol/index.ts";

/** A tool the model may call; `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call as the model wrote it: `arguments` is its raw JSON text, validated by whoever runs the tool. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** An image a tool returns to the model (a screenshot). */
export interface ToolImage {
  mimeType: "image/jpeg" | "image/png";
  /** Base64, without a data: prefix. */
  data: string;
}

export type ChatTurn =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; image?: ToolImage };

export type ChatStreamEvent = { type: "delta"; text: string } | { type: "tool_call"; call: ToolCall } | { type: "done"; usage: Usage };

export interface ChatRequest {
  system: string;
  turns: ChatTurn[];
  tools: ToolSpec[];
  /** `none`: the model must answer in words, though the conversation has tool calls (so the tools stay declared). */
  toolChoice?: "auto" | "none";
}

export interface ChatModel {
  /** `provider/model`, as logs and the run card name it. */
  readonly name: string;
  /** Rejects (or throws while iterating) with an AppError, or with the signal's reason on Stop. */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatStreamEvent>;
}
