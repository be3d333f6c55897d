// The chat model of seed 004 §5 (its LlmGateway): a conversation and the tools it may call go
// in; text deltas, tool calls and the token count come out as a stream. The chat assistant
// (agent/chat-agent.ts) speaks only this; each provider's file translates its wire protocol.
import type { Usage } from "../../protocol/index.ts";
import type { AttachedFile } from "../attachments.ts";

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
  /** A member of a provider's toolset names its family (`browser`); it is echoed on the call and its result. */
  toolset?: string;
}

/**
 * A provider's toolset declared as one entry in place of the tools' JSON Schemas (Anthropic's
 * `browser_toolset_20260801`): its members come back as calls named by the member.
 */
export interface ToolsetEntry {
  type: string;
  configs?: Record<string, { enabled: boolean }>;
}

/** An open tab as a toolset member's result reports the browser after it (`browser_state`). */
export interface TabEntry {
  tab_id: string;
  title: string;
  url: string;
  active: boolean;
}

/** An image a tool returns to the model (a screenshot). */
export interface ToolImage {
  mimeType: "image/jpeg" | "image/png";
  /** Base64, without a data: prefix. */
  data: string;
}

export type ChatTurn =
  /** `files`: the person's attached files, read for the model (models/attachments.ts), after the text. */
  | { role: "user"; text: string; files?: readonly AttachedFile[] }
  | { role: "assistant"; text: string; toolCalls: ToolCall[] }
  | {
      role: "tool";
      toolCallId: string;
      name: string;
      content: string;
      image?: ToolImage;
      /** The answer to a toolset member's call: its family, whether it failed, and the tabs after it. */
      toolset?: { name: string; isError: boolean; tabs: TabEntry[] | null };
    };

export type ChatStreamEvent = { type: "delta"; text: string } | { type: "tool_call"; call: ToolCall } | { type: "done"; usage: Usage };

export interface ChatRequest {
  system: string;
  turns: ChatTurn[];
  tools: ToolSpec[];
  /** Declared instead of `tools`' schemas; `tools` still names what its member calls are checked against. */
  toolset?: ToolsetEntry;
  /** Of `tools`, those declared by their schemas beside the toolset (the page's own tools' pageTool): their calls name no family. */
  besideToolset?: readonly string[];
  /** `none`: the model must answer in words, though the conversation has tool calls (so the tools stay declared). */
  toolChoice?: "auto" | "none";
}

export interface ChatModel {
  /** `provider/model`, as logs and the run card name it. */
  readonly name: string;
  /** Rejects (or throws while iterating) with an AppError, or with the signal's reason on Stop. */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatStreamEvent>;
}
