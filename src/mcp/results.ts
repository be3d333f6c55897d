// How a tool of ours answers an MCP client: JSON text (and an image, a page view as text of its
// own), and a failure as an error result with the AppError's code, message and whether a retry may
// help — never a thrown protocol error, which a client's model would not read.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../core/errors.ts";

export type Content = CallToolResult["content"][number];

export function json(value: unknown, more: Content[] = []): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }, ...more] };
}

function refusal(error: { code: string; message: string; retryable?: boolean }): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: { retryable: false, ...error } }) }] };
}

/** Runs a tool's work; an AppError (or anything thrown) becomes the call's error result. */
export async function answering(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) return refusal({ code: error.code, message: error.message, retryable: error.retryable });
    return refusal({ code: "INTERNAL", message: error instanceof Error ? error.message : String(error) });
  }
}
