// The Gemini API's generateContent as the adapters speak it (REST, v1beta, camelCase as the
// reference's JSON): contents of parts (text, inlineData, functionCall, functionResponse), the
// person's files as parts, the computerUse tool, the reply validated with zod at the edge, and one
// call through the shared HTTP policy with the key in `x-goog-api-key`.
import { z } from "zod";
import { fileParts, type AttachedFile } from "../attachments.ts";
import { postJson, type HttpPolicy } from "../http.ts";

export type InlineData = { inlineData: { mimeType: "image/jpeg" | "image/png" | "image/webp"; data: string } };
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

type GeminiImage = InlineData["inlineData"]["mimeType"];
const GEMINI_IMAGES: readonly string[] = ["image/png", "image/jpeg", "image/webp"] satisfies GeminiImage[];

function takesImage(mimeType: string): mimeType is GeminiImage {
  return GEMINI_IMAGES.includes(mimeType);
}

/** The person's files as text and inlineData parts; an image Gemini does not take (a GIF) is named. */
export function attachmentParts(files: readonly AttachedFile[]): UserPart[] {
  return files.flatMap((file, i) => {
    const shown: AttachedFile = file.type === "image" && !takesImage(file.mimeType) ? { type: "named", name: file.name, mimeType: file.mimeType, why: "an image of a kind Gemini does not take." } : file;
    return fileParts(shown, i + 1).flatMap((part): UserPart[] => {
      if (part.type === "text") return [{ text: part.text }];
      return takesImage(part.mimeType) ? [{ inlineData: { mimeType: part.mimeType, data: part.data } }] : [];
    });
  });
}

export interface ComputerUseTool {
  computerUse: { environment: "ENVIRONMENT_BROWSER" | "ENVIRONMENT_DESKTOP"; excludedPredefinedFunctions?: string[] };
}

/** Functions of ours beside the computer tool (the page's tools' `page_tool`), their input as JSON Schema. */
export interface FunctionDeclarationsTool {
  functionDeclarations: { name: string; description: string; parametersJsonSchema: Record<string, unknown> }[];
}

export interface GenerateContentRequest {
  systemInstruction: { parts: { text: string }[] };
  contents: Content[];
  tools: (ComputerUseTool | FunctionDeclarationsTool)[];
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
