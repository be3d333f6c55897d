// The chat model over Gemini's streamGenerateContent (`?alt=sse`): each event is a whole
// GenerateContentResponse holding the next piece of the answer — text parts as they arrive, a
// functionCall part whole — and the usage so far. Gemini may give calls no id: they get one here,
// and it is left out when the call goes back. Thought signatures are kept for the calls they
// came with and sent back with them, as Gemini's newer models require.
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import type { Usage } from "../../protocol/index.ts";
import { attachmentParts, functionCallSchema, headers, methodUrl, usageSchema } from "../gemini/generate-content.ts";
import { postStream, type HttpPolicy } from "../http.ts";
import { parseJson } from "./json.ts";
import type { ChatModel, ChatRequest, ChatStreamEvent, ChatTurn } from "./chat-model.ts";

export interface GeminiChatOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  policy: HttpPolicy;
}

const chunkSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z
          .object({ parts: z.array(z.looseObject({ text: z.string().optional(), thought: z.boolean().optional(), functionCall: functionCallSchema.optional(), thoughtSignature: z.string().optional() })).default([]) })
          .optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
  usageMetadata: usageSchema,
  /** An error after the stream began comes as an event of its own. */
  error: z.object({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() }).optional(),
});

/** Ids made here for calls Gemini gave none; such an id is not sent back. */
const MADE_ID = "gemini-call-";
/** How many calls' thought signatures are remembered (a conversation reads back its recent turns). */
const KEEP_SIGNATURES = 500;

export class GeminiChat implements ChatModel {
  readonly name: string;
  private made = 0;
  private readonly signatures = new Map<string, string>();

  constructor(private readonly options: GeminiChatOptions) {
    this.name = options.model;
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
    const { baseUrl, apiKey, model, policy } = this.options;
    const body = {
      systemInstruction: { parts: [{ text: request.system }] },
      contents: this.toContents(request.turns),
      ...(request.tools.length > 0
        ? {
            tools: [{ functionDeclarations: request.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }],
            ...(request.toolChoice === "none" ? { toolConfig: { functionCallingConfig: { mode: "NONE" } } } : {}),
          }
        : {}),
    };
    const url = `${methodUrl(baseUrl, model, "streamGenerateContent")}?alt=sse`;
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    for await (const { data } of postStream({ url, headers: headers(apiKey), body }, policy, signal)) {
      const parsed = chunkSchema.safeParse(parseJson(data));
      if (!parsed.success) throw new AppError("MODEL_HTTP_ERROR", `Gemini streamed an event that does not parse: ${data.slice(0, 200)}`);
      const chunk = parsed.data;
      if (chunk.error) {
        const retryable = chunk.error.code === 429 || (chunk.error.code ?? 0) >= 500;
        throw new AppError("MODEL_HTTP_ERROR", `Gemini reported ${chunk.error.status ?? chunk.error.code ?? "an error"} mid-stream: ${chunk.error.message ?? ""}`.trim(), { retryable });
      }
      if (chunk.promptFeedback?.blockReason) throw new AppError("MODEL_HTTP_ERROR", `Gemini blocked the request: ${chunk.promptFeedback.blockReason}.`);
      // Each event carries the usage so far; the last one the whole of it.
      usage.input_tokens = chunk.usageMetadata?.promptTokenCount ?? usage.input_tokens;
      usage.output_tokens = (chunk.usageMetadata?.candidatesTokenCount ?? 0) + (chunk.usageMetadata?.thoughtsTokenCount ?? 0) || usage.output_tokens;
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.functionCall) {
          const id = part.functionCall.id ?? `${MADE_ID}${++this.made}`;
          if (part.thoughtSignature) this.remember(id, part.thoughtSignature);
          yield { type: "tool_call", call: { id, name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args) } };
        } else if (part.text && !part.thought) {
          yield { type: "delta", text: part.text };
        }
      }
    }
    yield { type: "done", usage };
  }

  private remember(id: string, signature: string): void {
    this.signatures.set(id, signature);
    if (this.signatures.size > KEEP_SIGNATURES) this.signatures.delete(this.signatures.keys().next().value!);
  }

  /** Turns become user and model contents; a tool's answer is a functionResponse in the user turn after the calls. */
  private toContents(turns: ChatTurn[]) {
    type Part = Record<string, unknown>;
    const contents: { role: "user" | "model"; parts: Part[] }[] = [];
    const push = (role: "user" | "model", parts: Part[]) => {
      const last = contents.at(-1);
      if (last?.role === role) last.parts.push(...parts);
      else contents.push({ role, parts });
    };
    for (const turn of turns) {
      switch (turn.role) {
        case "user":
          push("user", [{ text: turn.text }, ...attachmentParts(turn.files ?? [])]);
          break;
        case "assistant":
          push("model", [
            ...(turn.text ? [{ text: turn.text }] : []),
            ...turn.toolCalls.map((call) => {
              const signature = this.signatures.get(call.id);
              return { functionCall: { name: call.name, args: argsObject(call.arguments), ...sentId(call.id) }, ...(signature ? { thoughtSignature: signature } : {}) };
            }),
          ]);
          break;
        case "tool":
          push("user", [
            { functionResponse: { name: turn.name, ...sentId(turn.toolCallId), response: { output: turn.content } } },
            // The screenshot a tool returns travels beside its answer, which every Gemini model reads.
            ...(turn.image ? [{ inlineData: { mimeType: turn.image.mimeType, data: turn.image.data } }] : []),
          ]);
          break;
      }
    }
    return contents;
  }
}

function sentId(id: string): { id?: string } {
  return id.startsWith(MADE_ID) ? {} : { id };
}

/** A call whose arguments did not parse was answered with an error; its arguments are recorded as empty. */
function argsObject(text: string): Record<string, unknown> {
  const value = parseJson(text);
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
