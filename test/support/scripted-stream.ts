// Streamed replies of the scripted model (test support): a chat reply — text and tool calls —
// written as the event stream of OpenAI Chat Completions (`chat.completion.chunk`s, then
// `[DONE]`) or of Anthropic Messages (message_start … message_stop), as their API references
// describe them, a few characters per event and optionally paced.
import type { ServerResponse } from "node:http";

export interface ScriptedChat {
  text?: string;
  /**
   * Tool calls; `arguments` as an object is sent as its JSON, a string as it is (malformed on
   * purpose); `toolset`: a toolset member's family, sent as Anthropic's `toolset_name`.
   */
  calls?: { name: string; arguments: unknown; toolset?: string }[];
  /** Pause between two streamed events. */
  chunkDelayMs?: number;
}

export async function writeChatStream(res: ServerResponse, path: string, model: string, chat: ScriptedChat): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const events = path.endsWith("/v1/messages") ? anthropicEvents(model, chat) : openAIEvents(model, chat);
  for (const [index, event] of events.entries()) {
    if (res.destroyed) return;
    if (index > 0 && chat.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, chat.chunkDelayMs));
    res.write(event);
  }
  res.end();
}

function pieces(text: string, size = 6): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function argumentText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function openAIEvents(model: string, chat: ScriptedChat): string[] {
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>) => chunk([{ index: 0, delta: d, finish_reason: null }]);
  const calls = chat.calls ?? [];
  return [
    delta({ role: "assistant", content: "" }),
    ...pieces(chat.text ?? "").map((content) => delta({ content })),
    ...calls.flatMap((call, index) => [
      delta({ tool_calls: [{ index, id: `call_${index + 1}`, type: "function", function: { name: call.name, arguments: "" } }] }),
      ...pieces(argumentText(call.arguments), 12).map((args) => delta({ tool_calls: [{ index, function: { arguments: args } }] })),
    ]),
    chunk([{ index: 0, delta: {}, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }]),
    chunk([], { usage: { prompt_tokens: 800, completion_tokens: 40, total_tokens: 840 } }),
    "data: [DONE]\n\n",
  ];
}

function anthropicEvents(model: string, chat: ScriptedChat): string[] {
  const event = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  const calls = chat.calls ?? [];
  const blocks: string[][] = [];
  if (chat.text) {
    const index = blocks.length;
    blocks.push([
      event({ type: "content_block_start", index, content_block: { type: "text", text: "" } }),
      ...pieces(chat.text).map((text) => event({ type: "content_block_delta", index, delta: { type: "text_delta", text } })),
      event({ type: "content_block_stop", index }),
    ]);
  }
  for (const [n, call] of calls.entries()) {
    const index = blocks.length;
    blocks.push([
      event({ type: "content_block_start", index, content_block: { type: "tool_use", id: `toolu_${n + 1}`, name: call.name, input: {}, ...(call.toolset ? { toolset_name: call.toolset } : {}) } }),
      ...pieces(argumentText(call.arguments), 12).map((partial_json) =>
        event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }),
      ),
      event({ type: "content_block_stop", index }),
    ]);
  }
  return [
    event({
      type: "message_start",
      message: { id: "msg_scripted", type: "message", role: "assistant", content: [], model, stop_reason: null, stop_sequence: null, usage: { input_tokens: 800, output_tokens: 1 } },
    }),
    event({ type: "ping" }),
    ...blocks.flat(),
    event({ type: "message_delta", delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 40 } }),
    event({ type: "message_stop" }),
  ];
}
