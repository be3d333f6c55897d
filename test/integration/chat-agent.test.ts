// The chat assistant (master agent): a plain question is answered by streaming text, with no
// browser; a message that needs a computer starts a task through a tool call, whose run card
// streams as usual, and the assistant then answers from the task's result. What the model asks
// for is validated and, when it cannot run, answered with the reason — never run.
import { describe, expect, it } from "vitest";
import type { ChatMessage, SendReply, SessionEvent } from "../../src/protocol/index.ts";
import { act, isChatTurn, planningText } from "../support/scripted-model.ts";
import { childPrograms } from "../support/processes.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 2_000 } } });

const send = (session_id: string, text: string, extra: Record<string, unknown> = {}) =>
  app.api<SendReply>("POST", "/api/chat/send", { session_id, text, ...extra });
const chatRequests = (session: string) => model.requests.filter((r) => isChatTurn(r) && JSON.stringify(r.body).includes(session));
const messages = async (session: string) => (await app.api<{ messages: ChatMessage[] }>("GET", `/api/sessions/${session}/messages`)).json.messages;
type Failed = Extract<SessionEvent, { type: "chat.failed" }>;
type Completed = Extract<SessionEvent, { type: "chat.completed" }>;

/** Waits for the assistant's last word on a message: a stored reply, or a failure. */
async function turnEnd(session: string, replyTo: string) {
  const events = await openStream(app.url, session, 0);
  const end = await events.waitFor((e) => ((e.type === "chat.completed" && e.message !== null) || e.type === "chat.failed") && e.reply_to === replyTo);
  events.close();
  return { end, events: events.events };
}

describe("a plain question", () => {
  it("streams an answer without starting a browser or a task", async () => {
    const answer = "Paris is the capital of France, on the Seine.";
    model.chat({ chat: { text: answer, chunkDelayMs: 30 } });
    const sent = await send("s-plain", "What is the capital of France? (s-plain)");
    expect(sent.status).toBe(202);
    expect(sent.json).toMatchObject({ session_id: "s-plain", task_id: null });

    const events = await openStream(app.url, "s-plain", 0);
    const end = (await events.waitFor((e) => e.type === "chat.completed")) as Completed;
    const deltas = events.events.filter((e) => e.type === "chat.delta");
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((e) => (e.type === "chat.delta" ? e.delta : "")).join("")).toBe(answer);
    expect(events.events[0]).toMatchObject({ type: "chat.started", reply_to: sent.json.message_id });
    expect(end.message).toMatchObject({ role: "assistant", kind: "assistant_answer", text: answer, task_id: null });
    events.close();

    expect(events.events.some((e) => e.type.startsWith("task."))).toBe(false);
    expect((await app.api<{ tasks: unknown[] }>("GET", "/api/sessions/s-plain/tasks")).json.tasks).toEqual([]);
    expect(childPrograms().filter((name) => /chrom/i.test(name))).toEqual([]);
    expect((await messages("s-plain")).map((m) => [m.role, m.text])).toEqual([
      ["user", "What is the capital of France? (s-plain)"],
      ["assistant", answer],
    ]);

    // Once the answer is stored, a replay gives it whole instead of its pieces.
    const replay = await openStream(app.url, "s-plain", 0);
    await replay.waitFor((e) => e.type === "chat.completed");
    replay.close();
    expect(replay.events.map((e) => e.type)).toEqual(["chat.started", "chat.completed"]);
  });

  it("sends Chat Completions with streaming, the conversation and the computer_task tool", async () => {
    model.chat({ chat: { text: "Sure." } });
    const first = await send("s-fields", "Remember the word teapot. (s-fields)");
    await turnEnd("s-fields", first.json.message_id);
    model.chat({ chat: { text: "Teapot." } });
    const second = await send("s-fields", "Which word? (s-fields)");
    await turnEnd("s-fields", second.json.message_id);

    const request = chatRequests("s-fields")[1]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer test-key");
    const body = request.body as unknown as Record<string, unknown> & { messages: { role: string; content: unknown }[] };
    expect(Object.keys(body).sort()).toEqual(["messages", "model", "stream", "stream_options", "tool_choice", "tools"]);
    expect(body).toMatchObject({ model: "scripted-vl", stream: true, stream_options: { include_usage: true }, tool_choice: "auto" });
    expect(body.messages.map((m) => [m.role, typeof m.content])).toEqual([
      ["system", "string"],
      ["user", "string"],
      ["assistant", "string"],
      ["user", "string"],
    ]);
    expect(body.messages.slice(1).map((m) => m.content)).toEqual(["Remember the word teapot. (s-fields)", "Sure.", "Which word? (s-fields)"]);
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "computer_task",
          description: expect.stringContaining("real computer"),
          parameters: {
            type: "object",
            properties: {
              // Made from the zod schema that also checks the call.
              task: { type: "string", minLength: 1, maxLength: 20000, description: expect.any(String) },
              start_url: { type: "string", format: "uri", description: expect.any(String) },
              max_steps: { type: "integer", minimum: 1, maximum: 80, description: expect.stringContaining("80 when not given") },
            },
            required: ["task"],
            additionalProperties: false,
          },
        },
      },
    ]);
  });

  it("offers a task in the tool agent's mode with the tool agent's step cap (AGENT_MAX_STEPS), the one it starts it with, not MAX_STEPS", async () => {
    model.chat({ chat: { text: "Sure." } });
    const sent = await send("s-dom-cap", "Read the page for me. (s-dom-cap)", { agent_mode: "dom" });
    await turnEnd("s-dom-cap", sent.json.message_id);
    const [tool] = chatRequests("s-dom-cap")[0]!.body.tools as { function: { parameters: { properties: { max_steps: { description: string } } } } }[];
    expect(tool!.function.parameters.properties.max_steps.description).toContain("15 when not given");
  });
});

describe("a message that needs a computer", () => {
  it("starts a task with a run card, then answers from the task's result", async () => {
    const task = "Press the button on the form page and report what it says";
    model.chat(
      { chat: { text: "I'll do that in the browser.", calls: [{ name: "computer_task", arguments: { task, start_url: pages.url("form.html"), max_steps: 5 } }] } },
      { chat: { text: "Done — the page confirmed the press." } },
    );
    model.route((r) => planningText(r).includes(`Task: ${task}`), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "The button was pressed." }, "Finished"));
    // The person names the page: an address only the assistant chose would be asked about first (provenance.test.ts).
    const sent = await send("s-delegate", `press the button on ${pages.url("form.html")} for me (s-delegate)`);
    const { events } = await turnEndAfterTask("s-delegate");
    await pages.waitForRecord("clicked");

    const types = events.filter((e) => e.type !== "screen.live" && e.type !== "task.activity" && e.type !== "chat.delta").map((e) => e.type);
    expect(types).toEqual([
      "chat.started",
      "chat.completed",
      "task.started",
      "progress.append",
      "progress.append",
      "task.completed",
      "chat.started",
      "chat.completed",
    ]);
    expect(events.find((e) => e.type === "chat.completed")).toMatchObject({ message: { text: "I'll do that in the browser." } });
    const started = events.find((e) => e.type === "task.started")!;
    expect(started).toMatchObject({ task: { text: task, start_url: pages.url("form.html") } });
    expect(events.at(-1)).toMatchObject({ type: "chat.completed", reply_to: sent.json.message_id, message: { text: "Done — the page confirmed the press." } });

    // The model got the call back as an assistant message, and the task's result as the tool's.
    const followUp = chatRequests("s-delegate")[1]!.body.messages;
    expect(followUp.at(-2)).toMatchObject({
      role: "assistant",
      content: "I'll do that in the browser.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "computer_task", arguments: expect.stringContaining("max_steps") } }],
    });
    const result = followUp.at(-1) as unknown as { role: string; tool_call_id: string; content: string };
    expect(result).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(JSON.parse(result.content)).toMatchObject({ ok: true, result: { status: "completed", answer: "The button was pressed.", steps: 2 } });

    // The chat reads: the person, the assistant's first words, the card (its answer), the reply.
    const taskId = "task_id" in started ? started.task_id : "";
    expect((await messages("s-delegate")).map((m) => [m.role, m.kind, m.task_id === taskId ? "task" : m.task_id, m.text])).toEqual([
      ["user", "user_text", "task", `press the button on ${pages.url("form.html")} for me (s-delegate)`],
      ["assistant", "assistant_answer", null, "I'll do that in the browser."],
      ["assistant", "assistant_progress", "task", ""],
      ["assistant", "assistant_answer", "task", "The button was pressed."],
      ["assistant", "assistant_answer", null, "Done — the page confirmed the press."],
    ]);
  });

  it("caps the task's steps and tells the model when the task fails", async () => {
    const task = "Click the button forever";
    model.chat({ chat: { calls: [{ name: "computer_task", arguments: { task, start_url: pages.url("form.html"), max_steps: 2 } }] } }, { chat: { text: "It took too many steps." } });
    const click = act("click", { x: 200, y: 130 }, "Clicking");
    model.route((r) => planningText(r).includes(`Task: ${task}`), click, click, click);
    await send("s-capped", `keep clicking on ${pages.url("form.html")} (s-capped)`);
    const { events } = await turnEndAfterTask("s-capped");
    expect(events.find((e) => e.type === "task.failed")).toMatchObject({ error: { code: "STEP_LIMIT", message: "The task reached its limit of 2 steps." } });
    const result = chatRequests("s-capped")[1]!.body.messages.at(-1) as unknown as { content: string };
    expect(JSON.parse(result.content)).toMatchObject({ ok: false, error: { code: "STEP_LIMIT" }, result: { status: "failed", steps: 2 } });
  });

  it("adds no reply when the person stops the task", async () => {
    const task = "Wait on the page for a long time";
    model.chat({ chat: { calls: [{ name: "computer_task", arguments: { task } }] } });
    model.route((r) => planningText(r).includes(`Task: ${task}`), { ...act("done", { answer: "late" }), delayMs: 10_000 });
    const sent = await send("s-stopped", "wait there (s-stopped)");
    const events = await openStream(app.url, "s-stopped", 0);
    const started = await events.waitFor((e) => e.type === "task.started");
    expect(events.events.filter((e) => e.type.startsWith("chat.")).map((e) => e.type)).toEqual(["chat.started", "chat.completed"]);
    expect(events.events.find((e) => e.type === "chat.completed")).toMatchObject({ reply_to: sent.json.message_id, message: null });
    await app.api("POST", "/api/chat/stop", { task_id: "task_id" in started ? started.task_id : "" });
    await events.waitFor((e) => e.type === "task.stopped");
    // The session is free at once: the next message is taken.
    model.chat({ chat: { text: "Stopped, as you asked." } });
    await expect.poll(async () => (await send("s-stopped", "ok (s-stopped)")).status).toBe(202);
    await events.waitFor((e) => e.type === "chat.completed" && e.message?.text === "Stopped, as you asked.");
    events.close();
    expect(events.events.filter((e) => e.type === "chat.started")).toHaveLength(2);
  });
});

describe("Stop", () => {
  it("ends an answer mid-stream, keeping what was shown as the reply", async () => {
    const long = "One. Two. Three. Four. Five. Six. Seven. Eight. Nine. Ten. Eleven. Twelve.";
    model.chat({ chat: { text: long, chunkDelayMs: 150 } });
    const sent = await send("s-stop-answer", "count slowly (s-stop-answer)");
    const events = await openStream(app.url, "s-stop-answer", 0);
    await events.waitFor((e) => e.type === "chat.delta");
    const stop = await app.api("POST", "/api/chat/stop", { message_id: sent.json.message_id });
    expect(stop.status).toBe(202);
    const end = (await events.waitFor((e) => e.type === "chat.completed")) as Completed;
    events.close();
    const shown = end.message!.text;
    expect(shown.length).toBeGreaterThan(0);
    expect(long.startsWith(shown) && shown.length < long.length).toBe(true);
    expect((await messages("s-stop-answer")).at(-1)).toMatchObject({ role: "assistant", text: shown });
    const again = await app.api<{ error: { code: string } }>("POST", "/api/chat/stop", { message_id: sent.json.message_id });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("ANSWER_FINISHED");
  });

  it("stops the task an answer is waiting for", async () => {
    const task = "Wait for the slow planner";
    model.chat({ chat: { calls: [{ name: "computer_task", arguments: { task } }] } });
    model.route((r) => planningText(r).includes(`Task: ${task}`), { ...act("done", { answer: "late" }), delayMs: 10_000 });
    const sent = await send("s-stop-turn-task", "wait (s-stop-turn-task)");
    const events = await openStream(app.url, "s-stop-turn-task", 0);
    await events.waitFor((e) => e.type === "task.started");
    await app.api("POST", "/api/chat/stop", { message_id: sent.json.message_id });
    expect(await events.waitFor((e) => e.type === "task.stopped")).toMatchObject({ reason: "stopped by the user" });
    events.close();
    expect(chatRequests("s-stop-turn-task")).toHaveLength(1);
  });

  it("wants either a task or a message", async () => {
    for (const body of [{}, { task_id: "task_1", message_id: "msg_1" }]) {
      const reply = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/stop", body);
      expect(reply.status).toBe(400);
      expect(reply.json.error.message).toContain("give either task_id or message_id");
    }
  });
});

describe("what the model asks for", () => {
  it("answers unknown tools and bad arguments with the reason, never runs them, and ends with words", async () => {
    model.chat(
      { chat: { calls: [{ name: "shell", arguments: { command: "rm -rf /" } }] } },
      { chat: { calls: [{ name: "computer_task", arguments: '{"task": "open it", ' }] } },
      { chat: { calls: [{ name: "computer_task", arguments: { task: "read it", start_url: "file:///etc/passwd" } }] } },
      { chat: { text: "I cannot do that." } },
    );
    const sent = await send("s-hostile", "do something odd (s-hostile)");
    const { end } = await turnEnd("s-hostile", sent.json.message_id);
    expect(end).toMatchObject({ type: "chat.completed", message: { text: "I cannot do that." } });
    const requests = chatRequests("s-hostile");
    expect(requests).toHaveLength(4);
    const results = requests.slice(1).map((r) => JSON.parse((r.body.messages.at(-1) as unknown as { content: string }).content) as { ok: boolean; error: { code: string; message: string } });
    expect(results.map((r) => [r.ok, r.error.code])).toEqual([
      [false, "UNKNOWN_TOOL"],
      [false, "INVALID_ARGUMENTS"],
      [false, "INVALID_ARGUMENTS"],
    ]);
    expect(results[2]!.error.message).toBe("start_url: must be an http(s) URL");
    // After its repair budget (2) the model may not call tools any more, so it can only answer.
    expect(requests[3]!.body).toMatchObject({ tool_choice: "none", tools: [{ function: { name: "computer_task" } }] });
    expect((await app.api<{ tasks: unknown[] }>("GET", "/api/sessions/s-hostile/tasks")).json.tasks).toEqual([]);
  });
});

describe("the chat model's endpoint", () => {
  it("waits as long as retry-after says after a 429, then streams", async () => {
    model.chat({ status: 429, headers: { "retry-after": "1" }, body: '{"error":{"message":"slow down"}}' }, { chat: { text: "Here I am." } });
    const sent = await send("s-chat-429", "hello (s-chat-429)");
    const { end } = await turnEnd("s-chat-429", sent.json.message_id);
    expect(end).toMatchObject({ type: "chat.completed", message: { text: "Here I am." } });
    const [first, second] = chatRequests("s-chat-429");
    expect(second!.at - first!.answeredAt!).toBeGreaterThanOrEqual(950);
  });

  it("fails the turn, saying why, after 5xx on every retry — and the chat takes the next message", async () => {
    model.chat({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500, body: '{"error":"down"}' });
    const sent = await send("s-chat-500", "hello (s-chat-500)");
    const { end } = await turnEnd("s-chat-500", sent.json.message_id);
    expect(end).toMatchObject({ type: "chat.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect((end as Failed).error.message).toContain("HTTP 500");
    expect(chatRequests("s-chat-500")).toHaveLength(4);
    model.chat({ chat: { text: "Back." } });
    const again = await send("s-chat-500", "again (s-chat-500)");
    expect(again.status).toBe(202);
    expect((await turnEnd("s-chat-500", again.json.message_id)).end).toMatchObject({ type: "chat.completed" });
  });

  it("gives up on a stream that stops mid-answer, without retrying what was already shown", async () => {
    const partial = 'data: {"choices":[{"index":0,"delta":{"content":"Let me th"}}]}\n\n';
    model.chat({ sse: partial, hang: true });
    const sent = await send("s-chat-stall", "think (s-chat-stall)");
    const { end, events } = await turnEnd("s-chat-stall", sent.json.message_id);
    expect(end).toMatchObject({ type: "chat.failed", error: { code: "MODEL_TIMEOUT" } });
    expect(events.some((e) => e.type === "chat.delta" && e.delta === "Let me th")).toBe(true);
    expect(chatRequests("s-chat-stall")).toHaveLength(1);
  });

  it("fails on a stream that is not made of chat chunks, and on a reply that is not a stream", async () => {
    model.chat({ sse: "data: {broken\n\n" });
    const sent = await send("s-chat-garbage", "hello (s-chat-garbage)");
    const { end } = await turnEnd("s-chat-garbage", sent.json.message_id);
    expect((end as Failed).error.message).toContain("not a chat completion chunk");
    model.chat({ message: { choices: [{ message: { content: "not streamed" } }] } });
    const plain = await send("s-chat-garbage", "again (s-chat-garbage)");
    const second = await turnEnd("s-chat-garbage", plain.json.message_id);
    expect((second.end as Failed).error.message).toContain("instead of an event stream");
  });

  it("refuses a second message while the assistant is still answering", async () => {
    model.chat({ chat: { text: "Slowly…" }, delayMs: 600 });
    const first = await send("s-chat-busy", "first (s-chat-busy)");
    const second = await send("s-chat-busy", "second (s-chat-busy)");
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ error: { code: "SESSION_BUSY" } });
    await turnEnd("s-chat-busy", first.json.message_id);
  });
});

/** The events of a session up to the end of the assistant's turn that follows a task. */
async function turnEndAfterTask(session: string) {
  const stream = await openStream(app.url, session, 0);
  await stream.waitFor((e) => e.type === "task.completed" || e.type === "task.failed");
  const taskEnd = stream.events.findIndex((e) => e.type === "task.completed" || e.type === "task.failed");
  await stream.waitFor((e) => e.type === "chat.completed" && stream.events.indexOf(e) > taskEnd);
  stream.close();
  return { events: stream.events as SessionEvent[] };
}
