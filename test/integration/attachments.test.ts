// The files a person attaches reach every model in its own wire format: Claude's computer tool,
// OpenAI's, Gemini's and the tool agent each get an attached image as an image and a PDF's text
// with its page count; a file over the attachments' budget (MODEL_ATTACHMENTS_KB) is named with why.
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attachment, ModelChoice } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { dataUrl, pdfFile } from "../support/pdf-file.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
const BUDGET_KB = 64;

beforeAll(async () => {
  const scripted = { baseUrl: model.baseUrl, apiKey: "test-key" };
  app = await startApp({
    modelBaseUrl: model.baseUrl,
    config: { model: { attachmentsKb: BUDGET_KB, timeoutMs: 60_000 }, providers: { anthropic: scripted, openai: scripted, gemini: scripted } },
  });
});
afterAll(async () => {
  await app?.close();
});

const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
const invoice = pdfFile(["Invoice number 4471", "Total due: 312 euros"]);
const files: Attachment[] = [
  { name: "receipt.png", mime_type: "image/png", data_url: dataUrl("image/png", png) },
  { name: "invoice.pdf", mime_type: "application/pdf", data_url: dataUrl("application/pdf", invoice) },
];

/** Runs a task with these files to its end; the requests are those `isMine` picks. */
async function run(session: string, task: string, isMine: (r: RecordedRequest) => boolean, reply: Reply, extra: { model?: ModelChoice; agent_mode?: "hybrid" }, attached = files) {
  model.route(isMine, reply);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("article.html"), attachments: attached, ...extra });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id, 90_000);
  events.close();
  return { end, requests: model.requests.filter(isMine) };
}

const mentions = (task: string) => (r: RecordedRequest) => JSON.stringify(r.body).includes(task);
const pngBase64 = png.toString("base64");

describe("attachments every model sees", () => {
  it("gives Claude's computer tool the image as an image block and the PDF's text as a document with its page count", async () => {
    const task = "Check the receipt against the invoice for Claude";
    const endTurn: Reply = {
      message: { id: "msg_files", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: "They match." }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 2 } },
    };
    const { end, requests } = await run("s-files-claude", task, (r) => r.path.endsWith("/v1/messages") && mentions(task)(r), endTurn, { model: { provider: "anthropic", name: "claude-test" } });
    expect(end).toMatchObject({ type: "task.completed", answer: "They match." });
    const first = (requests[0]!.body as unknown as { messages: { content: Record<string, unknown>[] }[] }).messages[0]!.content;
    expect(first).toContainEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } });
    expect(first).toContainEqual({
      type: "document",
      source: { type: "text", media_type: "text/plain", data: "[Page 1]\nInvoice number 4471\n\n[Page 2]\nTotal due: 312 euros" },
      title: "invoice.pdf",
      context: "Attachment 2: invoice.pdf (a PDF of 2 pages)",
    });
  });

  it("gives OpenAI's computer tool the image as input_image and the PDF's text as input_text", async () => {
    const task = "Check the receipt against the invoice for OpenAI";
    const say: Reply = {
      message: { id: "resp_files", object: "response", status: "completed", output: [{ type: "message", id: "m1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "They match.", annotations: [] }] }], usage: { input_tokens: 10, output_tokens: 2 } },
    };
    const { end, requests } = await run("s-files-openai", task, (r) => r.path.endsWith("/responses") && mentions(task)(r), say, { model: { provider: "openai", name: "computer-use-preview" } });
    expect(end).toMatchObject({ type: "task.completed", answer: "They match." });
    const content = (requests[0]!.body as unknown as { input: { content: { type: string; text?: string; image_url?: string }[] }[] }).input[0]!.content;
    expect(content).toContainEqual({ type: "input_image", image_url: `data:image/png;base64,${pngBase64}` });
    expect(content).toContainEqual({ type: "input_text", text: "Attachment 2: invoice.pdf (a PDF of 2 pages):\n[Page 1]\nInvoice number 4471\n\n[Page 2]\nTotal due: 312 euros" });
    // The screen is the last image, after the files.
    expect(content.at(-1)!.image_url).toMatch(/^data:image\/jpeg;base64,/);
  });

  it("gives Gemini the image as inlineData and the PDF's text as text", async () => {
    const task = "Check the receipt against the invoice for Gemini";
    const say: Reply = { message: { candidates: [{ content: { role: "model", parts: [{ text: "They match." }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2 } } };
    const { end, requests } = await run("s-files-gemini", task, (r) => r.path.includes(":generateContent") && mentions(task)(r), say, { model: { provider: "gemini", name: "gemini-test" } });
    expect(end).toMatchObject({ type: "task.completed", answer: "They match." });
    const parts = requests[0]!.body.contents![0]!.parts as Record<string, unknown>[];
    expect(parts).toContainEqual({ inlineData: { mimeType: "image/png", data: pngBase64 } });
    expect(parts).toContainEqual({ text: "Attachment 2: invoice.pdf (a PDF of 2 pages):\n[Page 1]\nInvoice number 4471\n\n[Page 2]\nTotal due: 312 euros" });
  });

  it("gives the tool agent's chat model the image as image_url and the PDF's text as text", async () => {
    const goal = "Check the receipt against the invoice with tools";
    const isAgent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && mentions(goal)(r);
    const close: Reply = { chat: { calls: [{ name: "close", arguments: { reasoning: "They match.", taskComplete: true } }] } };
    const { end, requests } = await run("s-files-tools", goal, isAgent, close, { agent_mode: "hybrid" });
    expect(end).toMatchObject({ type: "task.completed", answer: "They match." });
    const person = requests[0]!.body.messages[1]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(person[0]!.text).toContain(`Goal: ${goal}`);
    expect(person).toContainEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}` } });
    expect(person).toContainEqual({ type: "text", text: "Attachment 2: invoice.pdf (a PDF of 2 pages):\n[Page 1]\nInvoice number 4471\n\n[Page 2]\nTotal due: 312 euros" });
  });

  it("names a file over the budget with why, and one that cannot be read, and still sends the rest", async () => {
    const task = "Look at the large photo for Claude";
    // Noise does not compress: well over the 64 KB budget.
    const noise = randomBytes(160 * 160 * 3);
    const photo = await sharp(noise, { raw: { width: 160, height: 160, channels: 3 } }).png().toBuffer();
    expect(photo.length).toBeGreaterThan(BUDGET_KB * 1024);
    const attached: Attachment[] = [
      { name: "photo.png", mime_type: "image/png", data_url: dataUrl("image/png", photo) },
      { name: "locked.pdf", mime_type: "application/pdf", data_url: dataUrl("application/pdf", Buffer.from("%PDF-1.7\nnot really a PDF")) },
      files[1]!,
    ];
    const endTurn: Reply = {
      message: { id: "msg_large", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: "The photo is too large." }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 2 } },
    };
    const { end, requests } = await run("s-files-large", task, (r) => r.path.endsWith("/v1/messages") && mentions(task)(r), endTurn, { model: { provider: "anthropic", name: "claude-test" } }, attached);
    expect(end).toMatchObject({ type: "task.completed" });
    const first = (requests[0]!.body as unknown as { messages: { content: { type: string; text?: string }[] }[] }).messages[0]!.content;
    const texts = first.flatMap((block) => (block.type === "text" ? [block.text!] : []));
    expect(texts).toContainEqual(expect.stringMatching(new RegExp(`^Attachment 1: photo\\.png \\(image/png\\): too large for the model: \\d+ KB, where ${BUDGET_KB} KB is left of the ${BUDGET_KB} KB the attachments may take \\(MODEL_ATTACHMENTS_KB\\)\\.$`)));
    expect(texts).toContainEqual(expect.stringMatching(/^Attachment 2: locked\.pdf \(application\/pdf\): could not be read as a PDF \(.+\); it may be damaged or locked with a password\.$/));
    // Only the screenshot is an image; the invoice still comes as text.
    expect(first.filter((block) => block.type === "image")).toHaveLength(1);
    expect(first).toContainEqual(expect.objectContaining({ type: "document", title: "invoice.pdf" }));
  });
});
