// The chat assistant on Gemini (CHAT_PROVIDER=gemini, or MODEL_PROVIDER=gemini): the streamed
// request is streamGenerateContent?alt=sse as the REST reference describes it — the system
// instruction, the computer_task tool as a function declaration with its JSON Schema — and a
// streamed functionCall starts a real task whose result goes back as a functionResponse, the call
// returned with its thought signature. The tool agent's screenshots travel beside their answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SendReply, SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { isChatTurn, systemText, type RecordedRequest } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
beforeAll(async () => {
  // The planner is Gemini's computer-use model; the chat takes a Gemini chat model on the same key.
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "gemini", name: "gemini-2.5-computer-use-preview-10-2025", apiKey: "gm-key" }, chat: { name: "gemini-chat-test" } } });
});
afterAll(() => app.close());

type Part = Record<string, unknown>;
type Body = { systemInstruction: { parts: { text: string }[] }; contents: { role: string; parts: Part[] }[]; tools: { functionDeclarations: Part[] }[] };
const body = (r: RecordedRequest) => r.body as unknown as Body;

describe("the chat assistant on Gemini", () => {
  it("streams its words, calls computer_task with a functionCall, and answers from the functionResponse", async () => {
    const task = "Press the button on the form page";
    model.chat(
      { chat: { text: "Opening the form.", calls: [{ name: "computer_task", arguments: { task, start_url: pages.url("form.html") } }] } },
      { chat: { text: "The button is pressed." } },
    );
    model.route((r) => !isChatTurn(r) && JSON.stringify(r.body).includes(`Task: ${task}`), {
      message: { candidates: [{ content: { role: "model", parts: [{ text: "The page shows the button; it is pressed." }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 12 } },
    });
    const sent = await app.api<SendReply>("POST", "/api/chat/send", { session_id: "s-gemini-chat", text: `press the button on ${pages.url("form.html")} please` });
    const events = await openStream(app.url, "s-gemini-chat", 0);
    await events.waitFor((e) => e.type === "chat.completed" && e.message?.text === "The button is pressed.");
    events.close();
    const replies = events.events.filter((e): e is Extract<SessionEvent, { type: "chat.completed" }> => e.type === "chat.completed");
    expect(replies.map((e) => e.message?.text)).toEqual(["Opening the form.", "The button is pressed."]);
    expect(events.events.find((e) => e.type === "task.completed")).toMatchObject({ answer: "The page shows the button; it is pressed." });
    expect(sent.json.task_id).toBeNull();

    const [first, second] = model.requests.filter(isChatTurn);
    expect(first!.path).toBe("/v1/models/gemini-chat-test:streamGenerateContent?alt=sse");
    expect(first!.headers["x-goog-api-key"]).toBe("gm-key");
    expect(Object.keys(body(first!)).sort()).toEqual(["contents", "systemInstruction", "tools"]);
    expect(body(first!).systemInstruction.parts[0]!.text).toContain("computer_task");
    expect(body(first!).tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "computer_task",
            description: expect.any(String),
            parametersJsonSchema: expect.objectContaining({ type: "object", required: ["task"], properties: expect.objectContaining({ task: expect.objectContaining({ type: "string" }) }) }),
          },
        ],
      },
    ]);
    expect(body(first!).contents).toEqual([{ role: "user", parts: [{ text: `press the button on ${pages.url("form.html")} please` }] }]);

    const [person, call, result] = body(second!).contents;
    expect(person).toEqual(body(first!).contents[0]);
    expect(call).toEqual({
      role: "model",
      parts: [{ text: "Opening the form." }, { functionCall: { name: "computer_task", args: { task, start_url: pages.url("form.html") } }, thoughtSignature: "c2lnbmF0dXJl" }],
    });
    expect(result).toMatchObject({ role: "user", parts: [{ functionResponse: { name: "computer_task", response: { output: expect.any(String) } } }] });
    const output = (result!.parts[0] as { functionResponse: { response: { output: string } } }).functionResponse.response.output;
    expect(JSON.parse(output)).toMatchObject({ ok: true, result: { status: "completed", answer: "The page shows the button; it is pressed." } });
  });

  it("fails the turn when Gemini streams something that is not a response", async () => {
    model.chat({ sse: 'data: {"candidates": "nope"}\r\n\r\n' });
    await app.api("POST", "/api/chat/send", { session_id: "s-gemini-garbled", text: "hello" });
    const events = await openStream(app.url, "s-gemini-garbled", 0);
    const failed = await events.waitFor((e) => e.type === "chat.failed");
    events.close();
    expect(failed).toMatchObject({ error: { code: "MODEL_HTTP_ERROR", message: expect.stringContaining("Gemini streamed an event that does not parse") } });
  });

  it("fails the turn on an error event mid-stream, saying why", async () => {
    const text = { candidates: [{ content: { role: "model", parts: [{ text: "Let me" }] } }] };
    const error = { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } };
    model.chat({ sse: `data: ${JSON.stringify(text)}\r\n\r\ndata: ${JSON.stringify(error)}\r\n\r\n` });
    await app.api("POST", "/api/chat/send", { session_id: "s-gemini-overloaded", text: "hello" });
    const events = await openStream(app.url, "s-gemini-overloaded", 0);
    const failed = await events.waitFor((e) => e.type === "chat.failed");
    events.close();
    expect(failed).toMatchObject({ error: { code: "MODEL_HTTP_ERROR", message: "Gemini reported UNAVAILABLE mid-stream: The model is overloaded." } });
  });

  it("drives the tool agent too: a screenshot goes back beside the functionResponse, as inlineData", async () => {
    const goal = "Look at the form";
    const agent = (r: RecordedRequest) => systemText(r).startsWith("<identity>") && JSON.stringify(r.body).includes(`Goal: ${goal}`);
    model.route(
      agent,
      { chat: { calls: [{ name: "screenshot", arguments: {} }] } },
      { chat: { calls: [{ name: "close", arguments: { reasoning: "It has a button.", taskComplete: true } }] } },
    );
    const { json } = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-gemini-tools", text: goal, start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-gemini-tools", 0);
    expect(await events.completes(json.task_id!)).toMatchObject({ answer: "It has a button." });
    events.close();
    const second = model.requests.filter(agent)[1]!;
    const [, call, result] = body(second).contents;
    expect(call).toMatchObject({ role: "model", parts: [{ functionCall: { name: "screenshot", args: {} } }] });
    expect(result).toMatchObject({
      role: "user",
      parts: [{ functionResponse: { name: "screenshot", response: { output: expect.any(String) } } }, { inlineData: { mimeType: "image/jpeg", data: expect.any(String) } }],
    });
  });
});
