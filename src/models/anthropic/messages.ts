// The Anthropic Messages API as the computer-use adapter speaks it: request blocks (the person's
// files among them), the reply validated with zod at the edge, and one call through the shared
// HTTP policy.
import { z } from "zod";
import { fileLabel, fileParts, type AttachedFile } from "../attachments.ts";
import { postJson, type HttpPolicy } from "../http.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

export type ImageBlock = { type: "image"; source: { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/webp" | "image/gif"; data: string } };
/** A text the person attached (a PDF's extracted text among them), titled with its file's name. */
export type DocumentBlock = { type: "document"; source: { type: "text"; media_type: "text/plain"; data: string }; title: string; context: string };
export type TextBlock = { type: "text"; text: string };
export type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
export type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  /** A toolset member's result names its family, as its call did (`computer`). */
  toolset_name?: string;
  content: (TextBlock | ImageBlock)[];
  is_error?: boolean;
};
export type AssistantBlock = TextBlock | ToolUseBlock | { type: string; [key: string]: unknown };

export type MessageParam =
  | { role: "user"; content: (TextBlock | ImageBlock | DocumentBlock | ToolResultBlock)[] }
  | { role: "assistant"; content: AssistantBlock[] };

/** The single `computer` tool of the 2025 versions; its actions are `input.action`. */
export interface ComputerTool {
  type: "computer_20250124" | "computer_20251124";
  name: "computer";
  display_width_px: number;
  display_height_px: number;
  /** computer_20251124 only: offers the `zoom` action. */
  enable_zoom?: boolean;
}

/**
 * The computer toolset: one nameless entry whose members are each called as a tool of their own
 * (`name` the member, `toolset_name: "computer"`). Every member is on unless the entry's `configs`
 * turns it off, and this adapter serves all seventeen, so it sends none; coordinates are pixels of
 * the screenshots the model was sent, so no display size is declared.
 */
export interface ComputerToolset {
  type: "computer_toolset_20260801";
}

/** The person's files: a text (a PDF's) as a document titled with its name, an image as an image after its label. */
export function attachmentBlocks(files: readonly AttachedFile[]): (TextBlock | ImageBlock | DocumentBlock)[] {
  return files.flatMap((file, i): (TextBlock | ImageBlock | DocumentBlock)[] => {
    // The API takes no empty document.
    if (file.type === "text" && file.text.trim()) {
      return [{ type: "document", source: { type: "text", media_type: "text/plain", data: file.text }, title: file.name, context: fileLabel(file, i + 1) }];
    }
    return fileParts(file, i + 1).map((part) =>
      part.type === "text" ? { type: "text", text: part.text } : { type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } },
    );
  });
}

/** A tool of our own beside the computer tool (the page's tools' `page_tool`): Claude calls it by name with input following the schema. */
export interface CustomTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system: (TextBlock & { cache_control: { type: "ephemeral" } })[];
  /** None for a question outside the task's conversation (the pointer check). */
  tools?: (ComputerTool | ComputerToolset | CustomTool)[];
  messages: MessageParam[];
}

const replySchema = z.object({
  type: z.literal("message"),
  role: z.literal("assistant"),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullable(),
  usage: z.object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  }),
});
export type MessagesReply = z.infer<typeof replySchema>;

export const toolUseSchema = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  toolset_name: z.string().optional(),
  input: z.record(z.string(), z.unknown()),
});

export interface AnthropicEndpoint {
  baseUrl: string;
  apiKey: string;
  /** The `anthropic-beta` header; the generally available toolset needs none. */
  beta: string | null;
  policy: HttpPolicy;
}

export async function createMessage(endpoint: AnthropicEndpoint, request: MessagesRequest, signal: AbortSignal): Promise<MessagesReply> {
  return postJson(
    {
      // Both `https://api.anthropic.com` and `…/v1` name the same API.
      url: `${endpoint.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/messages`,
      headers: { "x-api-key": endpoint.apiKey, "anthropic-version": ANTHROPIC_VERSION, ...(endpoint.beta ? { "anthropic-beta": endpoint.beta } : {}) },
      body: request,
      reply: replySchema,
      notReply: "The Anthropic reply is not a message",
    },
    endpoint.policy,
    signal,
  );
}
