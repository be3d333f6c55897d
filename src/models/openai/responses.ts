// The OpenAI Responses API as the computer-use adapter speaks it: the computer tools
// (`computer_use_preview` with a display, the GA `computer` tool with batched actions), a function
// tool of ours beside them (the page's tools' `page_tool`), the output items it reads, validated
// with zod at the edge, and one call through the shared HTTP policy.
import { z } from "zod";
import { postJson, type HttpPolicy } from "../http.ts";

export type ComputerToolParam =
  | { type: "computer_use_preview"; display_width: number; display_height: number; environment: "browser" }
  | { type: "computer" };

/** A function of ours beside the computer tool: the model calls it by name with arguments as JSON text. */
export type FunctionToolParam = { type: "function"; name: string; description: string; parameters: Record<string, unknown>; strict: false };

export const safetyCheckSchema = z.object({ id: z.string(), code: z.string().nullish(), message: z.string().nullish() });
export type SafetyCheck = z.infer<typeof safetyCheckSchema>;

export type InputItem =
  | { role: "user"; content: ({ type: "input_text"; text: string } | { type: "input_image"; image_url: string })[] }
  | {
      type: "computer_call_output";
      call_id: string;
      output: { type: "computer_screenshot"; image_url: string; current_url?: string };
      acknowledged_safety_checks?: SafetyCheck[];
    }
  | { type: "function_call_output"; call_id: string; output: string };

export interface ResponsesRequest {
  model: string;
  instructions: string;
  tools: (ComputerToolParam | FunctionToolParam)[];
  input: InputItem[];
  previous_response_id?: string;
  truncation: "auto";
  reasoning?: { summary: "concise" };
}

export const computerActionSchema = z.looseObject({ type: z.string() });
export type ComputerAction = z.infer<typeof computerActionSchema>;

const computerCallSchema = z.object({
  type: z.literal("computer_call"),
  call_id: z.string(),
  action: computerActionSchema.optional(),
  actions: z.array(computerActionSchema).optional(),
  pending_safety_checks: z.array(safetyCheckSchema).default([]),
});
export type ComputerCall = z.infer<typeof computerCallSchema>;

const functionCallSchema = z.object({ type: z.literal("function_call"), call_id: z.string(), name: z.string(), arguments: z.string() });
export type FunctionCall = z.infer<typeof functionCallSchema>;

const messageSchema = z.object({
  type: z.literal("message"),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});
const reasoningSchema = z.object({
  type: z.literal("reasoning"),
  summary: z.array(z.object({ text: z.string() })).default([]),
});

const replySchema = z.object({
  id: z.string(),
  output: z.array(z.looseObject({ type: z.string() })),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullish(),
});

export interface ResponsesReply {
  id: string;
  calls: ComputerCall[];
  /** Calls of our function tools, each to be answered with a `function_call_output`. */
  functionCalls: FunctionCall[];
  /** The assistant's text and reasoning summaries, in order. */
  text: string;
  usage: { input_tokens: number; output_tokens: number };
}

export interface OpenAIEndpoint {
  baseUrl: string;
  apiKey: string;
  policy: HttpPolicy;
}

export async function createResponse(endpoint: OpenAIEndpoint, request: ResponsesRequest, signal: AbortSignal): Promise<ResponsesReply> {
  const reply = await postJson(
    {
      url: `${endpoint.baseUrl.replace(/\/+$/, "")}/responses`,
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      body: request,
      reply: replySchema,
      notReply: "The OpenAI reply is not a response",
    },
    endpoint.policy,
    signal,
  );
  const calls: ComputerCall[] = [];
  const functionCalls: FunctionCall[] = [];
  const texts: string[] = [];
  for (const item of reply.output) {
    const call = computerCallSchema.safeParse(item);
    if (call.success) calls.push(call.data);
    const functionCall = functionCallSchema.safeParse(item);
    if (functionCall.success) functionCalls.push(functionCall.data);
    const message = messageSchema.safeParse(item);
    if (message.success) texts.push(...message.data.content.map((c) => c.text ?? "").filter(Boolean));
    const reasoning = reasoningSchema.safeParse(item);
    if (reasoning.success) texts.push(...reasoning.data.summary.map((s) => s.text).filter(Boolean));
  }
  return { id: reply.id, calls, functionCalls, text: texts.join("\n").trim(), usage: reply.usage ?? { input_tokens: 0, output_tokens: 0 } };
}
