// The chat assistant over the Anthropic Messages API (MODEL_PROVIDER=anthropic): the streamed
// request is built as the API reference describes it — cached system prompt, the computer_task
// tool with its input schema, tool_use answered by a tool_result in the next user turn — and a
// streamed tool_use starts a real task whose result the assistant answers from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SendReply, SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { isChatTurn, systemText, type RecordedRequest } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "anthropic", name: "claude-test", apiKey: "sk-ant-test", maxTokens: 2048 } } });
});
afterAll(() => app.close());

type Block = Record<string, unknown>;
type Body = { model: string; max_tokens: number; stream: boolean; system: Block[]; tools: Block[]; messages: { role: string; content: Block[] }[] };
const body = (r: RecordedRequest) => r.body as unknown as Body;

describe("the chat assistant on Claude", () => {
  it("streams its words, calls computer_task with a tool_use, and answers from the tool_result", async () => {
    const task = "Press the button on the form page";
    model.chat(
      { chat: { text: "Opening the form.", calls: [{ name: "computer_task", arguments: { task, start_url: pages.url("form.html") } }] } },
      { chat: { text: "The button is pressed." } },
    );
    model.route((r) => !isChatTurn(r) && JSON.stringify(r.body).includes(`Task: ${task}`), {
      message: {
        id: "msg_cu",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [{ type: "text", text: "The page shows the button; it is pressed." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 900, output_tokens: 12 },
      },
    });
    const sent = await app.api<SendReply>("POST", "/api/chat/send", { session_id: "s-claude-chat", text: `press the button on ${pages.url("form.html")} please` });
    const events = await openStream(app.url, "s-claude-chat", 0);
    await events.waitFor((e) => e.type === "chat.completed" && e.message?.text === "The button is pressed.");
    events.close();
    const replies = events.events.filter((e): e is Extract<SessionEvent, { type: "chat.completed" }> => e.type === "chat.completed");
    expect(replies.map((e) => e.message?.text)).toEqual(["Opening the form.", "The button is pressed."]);
    expect(events.events.find((e) => e.type === "task.completed")).toMatchObject({ answer: "The page shows the button; it is pressed." });

    const [first, second] = model.requests.filter(isChatTurn);
    expect(first!.path).toBe("/v1/messages");
    expect(first!.headers["x-api-key"]).toBe("sk-ant-test");
    expect(first!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first!.headers["anthropic-beta"]).toBeUndefined();
    expect(Object.keys(body(first!)).sort()).toEqual(["max_tokens", "messages", "model", "stream", "system", "tools"]);
    expect(body(first!)).toMatchObject({ model: "claude-test", max_tokens: 2048, stream: true });
    expect(body(first!).system).toEqual([{ type: "text", text: expect.stringContaining("computer_task"), cache_control: { type: "ephemeral" } }]);
    expect(body(first!).tools).toEqual([
      {
        name: "computer_task",
        description: expect.any(String),
        input_schema: expect.objectContaining({ type: "object", required: ["task"], properties: expect.objectContaining({ task: expect.objectContaining({ type: "string" }) }) }),
      },
    ]);
    expect(body(first!).messages).toEqual([{ role: "user", content: [{ type: "text", text: `press the button on ${pages.url("form.html")} please` }] }]);

    const [person, call, result] = body(second!).messages;
    expect(person).toEqual(body(first!).messages[0]);
    expect(call).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Opening the form." },
        { type: "tool_use", id: "toolu_1", name: "computer_task", input: { task, start_url: pages.url("form.html") } },
      ],
    });
    expect(result).toMatchObject({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: expect.any(String) }] });
    expect(JSON.parse(String(result!.content[0]!.content))).toMatchObject({ ok: true, result: { status: "completed", answer: "The page shows the button; it is pressed." } });
    expect(sent.json.task_id).toBeNull();
  });

  it("fails the turn on an error event mid-stream, saying why", async () => {
    const error = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    model.chat({ sse: `event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5}}}\n\n${error}` });
    await app.api("POST", "/api/chat/send", { session_id: "s-claude-overloaded", text: "hello" });
    const events = await openStream(app.url, "s-claude-overloaded", 0);
    const failed = await events.waitFor((e) => e.type === "chat.failed");
    events.close();
    expect(failed).toMatchObject({ error: { code: "MODEL_HTTP_ERROR", message: "Claude reported overloaded_error mid-stream: Overloaded" } });
  });

  it("drives the tool agent too: a screenshot goes back inside the tool_result, as an image block", async () => {
    const goal = "Look at the form";
    const agent = (r: RecordedRequest) => systemText(r).startsWith("<identity>") && JSON.stringify(r.body).includes(`Goal: ${goal}`);
    model.route(
      agent,
      { chat: { calls: [{ name: "screenshot", arguments: {} }] } },
      { chat: { calls: [{ name: "close", arguments: { reasoning: "It has a button.", taskComplete: true } }] } },
    );
    const { json } = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-claude-tools", text: goal, start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-claude-tools", 0);
    expect(await events.completes(json.task_id!)).toMatchObject({ answer: "It has a button." });
    events.close();
    const second = model.requests.filter(agent)[1]!;
    const [, call, result] = body(second).messages;
    expect(call).toMatchObject({ role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "screenshot", input: {} }] });
    expect(result).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text" }, { type: "image", source: { type: "base64", media_type: "image/jpeg", data: expect.any(String) } }] }],
    });
  });
});
