// The Gemini API's generateContent as the adapters speak it (REST, v1beta, camelCase as the
// reference's JSON): contents of parts (text, inlineData, functionCall, functionResponse), the
// computerUse tool, the reply validated with zod at the edge, and one call through the shared
// HTTP policy with the key in `x-goog-api-key`.
import { z } from "zod";
import { postJson, type HttpPolicy } from "../http.ts";

export type InlineData = { inlineData: { mimeType: "image/jpeg" | "image/png"; data: string } };
export type FunctionResponsePart = {
  functionResponse: {
    name: string;
    id?: string;
    /** The function's result: the page's URL, an error, `safety_acknowledgement`. */
    response: Record<string, unknown>;
    /** The screenshot after the function, dropped once it is old. */
    parts?: InlineData[];
  };
};
export type UserPart = { text: string } | InlineData | FunctionResponsePart;
/** A model turn is sent back as it came (its thought signatures included). */
export type Content = { role: "user"; parts: UserPart[] } | { role: "model"; parts: Record<string, unknown>[] };

export interface ComputerUseTool {
  computerUse: { environment: "ENVIRONMENT_BROWSER" | "ENVIRONMENT_DESKTOP"; excludedPredefinedFunctions?: string[] };
}

export interface GenerateContentRequest {
  systemInstruction: { parts: { text: string }[] };
  contents: Content[];
  tools: ComputerUseTool[];
}

export const functionCallSchema = z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).default({}), id: z.string().optional() });
export type FunctionCall = z.infer<typeof functionCallSchema>;

const partSchema = z.looseObject({ text: z.string().optional(), thought: z.boolean().optional(), functionCall: functionCallSchema.optional() });
export const usageSchema = z
  .object({ promptTokenCount: z.number().optional(), candidatesTokenCount: z.number().optional(), thoughtsTokenCount: z.number().optional() })
  .optional();

const replySchema = z.object({
  candidates: z
    .array(z.object({ content: z.object({ role: z.string().optional(), parts: z.array(partSchema).default([]) }).optional(), finishReason: z.string().optional() }))
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
  usageMetadata: usageSchema,
});
export type GenerateContentReply = z.infer<typeof replySchema>;

export interface GeminiEndpoint {
  baseUrl: string;
  apiKey: string;
  policy: HttpPolicy;
}

/** `{base}/models/{model}:{method}`; a model named `models/…` keeps its one prefix. */
export function methodUrl(baseUrl: string, model: string, method: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/models/${encodeURIComponent(model.replace(/^models\//, ""))}:${method}`;
}

export function headers(apiKey: string): Record<string, string> {
  return apiKey ? { "x-goog-api-key": apiKey } : {};
}

export async function generateContent(endpoint: GeminiEndpoint, model: string, request: GenerateContentRequest, signal: AbortSignal): Promise<GenerateContentReply> {
  return postJson(
    {
      url: methodUrl(endpoint.baseUrl, model, "generateContent"),
      headers: headers(endpoint.apiKey),
      body: request,
      reply: replySchema,
      notReply: "The Gemini reply is not a generateContent response",
    },
    endpoint.policy,
    signal,
  );
}
