// The Gemini API as the scripted model speaks it (test support): the generateContent and
// streamGenerateContent request bodies checked field by field against the published REST
// reference (camelCase JSON: contents of parts, inlineData, functionCall, functionResponse with its
// screenshot parts, the computerUse tool and its environment and excluded functions), Gemini's
// own error body for a request that does not conform, and a chat reply written as Gemini streams
// it (`?alt=sse`: one GenerateContentResponse per event).
import type { ServerResponse } from "node:http";
import { z } from "zod";
import type { ScriptedChat } from "./scripted-stream.ts";

export const GEMINI_PATH = /\/models\/[^/:]+:(generateContent|streamGenerateContent)(\?alt=sse)?$/;

/** Gemini's predefined computer-use functions, as its reference lists them. */
export const PREDEFINED_FUNCTIONS = [
  "open_web_browser",
  "click_at",
  "hover_at",
  "type_text_at",
  "scroll_document",
  "scroll_at",
  "wait_5_seconds",
  "go_back",
  "go_forward",
  "search",
  "navigate",
  "key_combination",
  "drag_and_drop",
] as const;

const blob = z.strictObject({ mimeType: z.enum(["image/png", "image/jpeg", "image/webp"]), data: z.string().regex(/^[A-Za-z0-9+/]+=*$/) });
const userPart = z.union([
  z.strictObject({ text: z.string() }),
  z.strictObject({ inlineData: blob }),
  z.strictObject({
    functionResponse: z.strictObject({
      name: z.string().min(1).max(64),
      id: z.string().optional(),
      response: z.record(z.string(), z.unknown()),
      parts: z.array(z.strictObject({ inlineData: blob })).optional(),
    }),
  }),
  ]);
// A model turn goes back as it came, thought signatures and all.
const modelPart = z.union([
  z.looseObject({ functionCall: z.strictObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() }) }),
  z.looseObject({ text: z.string() }),
]);
const tool = z.union([
  z.strictObject({
    computerUse: z.strictObject({
      environment: z.enum(["ENVIRONMENT_BROWSER", "ENVIRONMENT_DESKTOP", "ENVIRONMENT_MOBILE"]),
      excludedPredefinedFunctions: z.array(z.enum(PREDEFINED_FUNCTIONS)).optional(),
    }),
  }),
  z.strictObject({
    functionDeclarations: z.array(z.strictObject({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/), description: z.string(), parametersJsonSchema: z.record(z.string(), z.unknown()) })),
  }),
]);
const requestSchema = z.strictObject({
  systemInstruction: z.strictObject({ parts: z.array(z.strictObject({ text: z.string() })) }).optional(),
  contents: z
    .array(z.union([z.strictObject({ role: z.literal("user"), parts: z.array(userPart).min(1) }), z.strictObject({ role: z.literal("model"), parts: z.array(modelPart).min(1) })]))
    .min(1),
  tools: z.array(tool).optional(),
  toolConfig: z.strictObject({ functionCallingConfig: z.strictObject({ mode: z.enum(["AUTO", "ANY", "NONE", "VALIDATED"]) }) }).optional(),
});

export type GeminiRequest = z.infer<typeof requestSchema>;

/** Why a body is not a request Gemini takes, or null when it is. */
export function geminiRequestProblem(body: unknown): string | null {
  const parsed = requestSchema.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `Invalid JSON payload received. ${issue.path.join(".")}: ${issue.message}`;
}

/** Gemini's error body, as its REST API answers a bad request. */
export function geminiError(code: number, status: string, message: string): string {
  return JSON.stringify({ error: { code, message, status } });
}

/** The text parts of a Gemini body's system instruction. */
export function geminiSystem(body: Pick<Partial<GeminiRequest>, "systemInstruction">): string {
  return body.systemInstruction?.parts.map((p) => p.text).join("\n") ?? "";
}

/** The text parts of a content, joined. */
export function geminiText(content: GeminiRequest["contents"][number] | undefined): string {
  return (content?.parts ?? []).map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("\n");
}

export async function writeGeminiStream(res: ServerResponse, chat: ScriptedChat): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const pieces: unknown[][] = [];
  const text = chat.text ?? "";
  for (let i = 0; i < text.length; i += 6) pieces.push([{ text: text.slice(i, i + 6) }]);
  for (const call of chat.calls ?? []) {
    // A malformed call is sent as the text Gemini would not parse into args: its args stay empty.
    const args = typeof call.arguments === "string" ? {} : call.arguments;
    pieces.push([{ functionCall: { name: call.name, args }, thoughtSignature: "c2lnbmF0dXJl" }]);
  }
  if (pieces.length === 0) pieces.push([{ text: "" }]);
  for (const [index, parts] of pieces.entries()) {
    if (res.destroyed) return;
    if (index > 0 && chat.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, chat.chunkDelayMs));
    const last = index === pieces.length - 1;
    const event = {
      candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
      usageMetadata: { promptTokenCount: 800, candidatesTokenCount: last ? 40 : index + 1, totalTokenCount: last ? 840 : 801 + index },
      modelVersion: "scripted",
    };
    res.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
  }
  res.end();
}
