// Anthropic computer use, against a scripted server speaking the Messages API: the request is
// built as the API reference describes it (beta header, cached system prompt, the computer tool
// with the display size, tool results carrying the screenshot), the tool calls drive a real page,
// and the display the model is told about is exactly the image it sees.
import { describe, expect, it } from "vitest";
import type { MessagesRequest } from "../../src/models/anthropic/messages.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import type { RecordedRequest, Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";
import { gate } from "../support/gate.ts";

const anthropic = { model: { provider: "anthropic" as const, name: "claude-test", apiKey: "sk-ant-test" } };
const { model, pages, app } = useWorld({ config: anthropic });

let nextId = 0;
const usage = { input_tokens: 1500, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 300 };
/** A reply of Claude's with these computer calls, ids `toolu_<n>`, then `toolu_<n>_2`, `toolu_<n>_3`… */
const toolUse = (text: string, ...inputs: Record<string, unknown>[]): Reply => ({
  message: {
    id: `msg_${++nextId}`,
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [
      ...(text ? [{ type: "text", text }] : []),
      ...inputs.map((input, i) => ({ type: "tool_use", id: i === 0 ? `toolu_${nextId}` : `toolu_${nextId}_${i + 1}`, name: "computer", input })),
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage,
  },
});
const endTurn = (text: string): Reply => ({
  message: { id: `msg_${++nextId}`, type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage },
});
const body = (r: RecordedRequest) => r.body as unknown as MessagesRequest;
const taskOf = (task: string) => (r: RecordedRequest) => JSON.stringify(body(r).messages[0]).includes(`Task: ${task}`);

async function run(session: string, task: string, startUrl: string, ...replies: Reply[]) {
  model.route(taskOf(task), ...replies);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: startUrl });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { end, requests: model.requests.filter(taskOf(task)), stored };
}

describe("Anthropic computer use", () => {
  it("looks at the pointer itself, in a request of its own, when the hit test cannot confirm a click, and clicks where it says the button went", async () => {
    const isCheck = (r: RecordedRequest) => r.path.endsWith("/v1/messages") && body(r).tools === undefined && JSON.stringify(body(r).messages).includes("on_target");
    // "Jumps once" is centred at (180, 125) on jumpy.html and drawn 400 px right and 200 px down when the pointer enters it.
    model.route(isCheck, endTurn('{"on_target": false, "dx": 400, "dy": 200}'));
    const { end, requests, stored } = await run(
      "s-claude-look",
      "press the button that jumps once",
      pages.url("jumpy.html"),
      toolUse("Pressing it.", { action: "left_click", coordinate: [180, 125] }),
      endTurn("Pressed."),
    );
    expect(end).toMatchObject({ type: "task.completed", answer: "Pressed." });
    await pages.waitForRecord("once-clicked");
    expect(stored.steps[0]?.verification).toMatchObject({ verified: true, model_calls: 1, attempts: [{ method: "hit_test", on_target: false }, { method: "model", on_target: false }, { method: "hit_test", on_target: true, cursor_x: 580, cursor_y: 325 }] });
    const check = body(model.requests.filter(isCheck).at(-1)!);
    expect(check.model).toBe("claude-test");
    expect(check.messages).toHaveLength(1);
    expect(JSON.stringify(check.messages[0])).toContain("aimed at (180, 125)");
    // The task's own conversation never saw the question.
    expect(requests.every((r) => !JSON.stringify(body(r).messages).includes("on_target"))).toBe(true);
  });

  it("runs a task on a real page through the computer tool and answers", async () => {
    const { end, requests, stored } = await run(
      "s-claude",
      "fill in the form",
      pages.url("form.html"),
      toolUse("I'll press the button.", { action: "left_click", coordinate: [200, 130] }),
      toolUse("Typing the name.", { action: "type", text: "Ada" }),
      toolUse("", { action: "screenshot" }),
      endTurn("The form says **Typed Ada**."),
    );
    expect(end).toMatchObject({ type: "task.completed", answer: "The form says **Typed Ada**." });
    await pages.waitForRecord("clicked");
    await pages.waitForRecord("typed:Ada");
    expect(stored.steps.map((s) => [s.action?.type, s.text, s.planner])).toEqual([
      ["click", "I'll press the button.", "anthropic:claude-test"],
      ["type", "Typing the name.", "anthropic:claude-test"],
      ["done", "The form says **Typed Ada**.", "anthropic:claude-test"],
    ]);
    expect(stored.task).toMatchObject({ model: "anthropic:claude-test", usage: { input_tokens: 4 * 1800, output_tokens: 4 * 40 } });

    expect(requests).toHaveLength(4);
    const [first, second, , fourth] = requests;
    expect(first!.path).toBe("/v1/messages");
    expect(first!.headers).toMatchObject({ "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", "anthropic-beta": "computer-use-2025-01-24" });
    expect(first!.headers.authorization).toBeUndefined();
    const request = body(first!);
    expect(request).toMatchObject({ model: "claude-test", max_tokens: 4096 });
    expect(request.system).toEqual([{ type: "text", text: expect.stringContaining("computer tool"), cache_control: { type: "ephemeral" } }]);
    expect(request.tools).toEqual([{ type: "computer_20250124", name: "computer", display_width_px: 1280, display_height_px: 800 }]);
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]).toMatchObject({ role: "user", content: [{ type: "text" }, { type: "image", source: { type: "base64", media_type: "image/jpeg" } }] });

    const afterClick = body(second!).messages;
    expect(afterClick.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(afterClick[1]!.content).toEqual([
      { type: "text", text: "I'll press the button." },
      { type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "computer", input: { action: "left_click", coordinate: [200, 130] } },
    ]);
    const result = afterClick[2]!.content[0] as { type: string; tool_use_id: string; content: { type: string; source: { data: string } }[] };
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: (afterClick[1]!.content[1] as { id: string }).id });
    expect(imageSize(Buffer.from(result.content[0]!.source.data, "base64"))).toEqual({ width: 1280, height: 800 });

    // The screenshot action is answered with the screen at once, without a step.
    const afterScreenshot = body(fourth!).messages.at(-1)!;
    expect(afterScreenshot.content).toEqual([{ type: "tool_result", tool_use_id: expect.any(String), content: [{ type: "image", source: expect.any(Object) }] }]);
  });

  it("refuses what it cannot carry out, and tells the model why in the tool result", async () => {
    const { end, requests } = await run(
      "s-claude-refuse",
      "select a line",
      pages.url("form.html"),
      toolUse("Shift-clicking the field.", { action: "left_click", coordinate: [250, 240], text: "shift" }),
      toolUse("Clicking outside the screen.", { action: "left_click", coordinate: [5000, 10] }),
      endTurn("I could not do it."),
    );
    expect(end).toMatchObject({ type: "task.completed", answer: "I could not do it." });
    const refusals = requests.slice(1).map((r) => body(r).messages.at(-1)!.content[0]);
    expect(refusals[0]).toMatchObject({ type: "tool_result", is_error: true, content: [{ type: "text", text: "holding shift during left_click is not supported here; press the keys with key or hold_key" }] });
    expect(refusals[1]).toMatchObject({ is_error: true, content: [{ text: "coordinate (5000, 10) is outside the 1280×800 display" }] });
  });

  it("tells the model what the person added, and does not carry out the calls it made before it knew", async () => {
    const task = "type a name";
    const { held, open: release } = gate();
    const twoCalls: Reply = {
      message: {
        id: "msg_two",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [
          { type: "text", text: "Pressing, then typing Ada." },
          { type: "tool_use", id: "toolu_press", name: "computer", input: { action: "left_click", coordinate: [200, 130] } },
          { type: "tool_use", id: "toolu_type", name: "computer", input: { action: "type", text: "Ada" } },
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage,
      },
      until: held,
    };
    model.route(taskOf(task), twoCalls, endTurn("I will type Grace instead."));
    const typedBefore = pages.records.filter((r) => r === "typed:Ada").length;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-claude-follow", text: task, start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-claude-follow", 0);
    while (!model.requests.some(taskOf(task))) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await app.api("POST", "/api/chat/send", { mode: "task", session_id: "s-claude-follow", text: "use Grace, not Ada" })).status).toBe(202);
    await events.waitFor((e) => e.type === "task.follow_up");
    release();
    await events.completes(json.task_id);
    events.close();
    await pages.waitForRecord("clicked");
    expect(pages.records.filter((r) => r === "typed:Ada")).toHaveLength(typedBefore);
    const asked = body(model.requests.filter(taskOf(task))[1]!).messages.at(-1)!;
    expect(asked.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_press", content: [{ type: "image", source: expect.any(Object) }] },
      { type: "tool_result", tool_use_id: "toolu_type", content: [{ type: "text", text: expect.stringContaining("Not carried out") }], is_error: true },
      { type: "text", text: expect.stringContaining("- use Grace, not Ada") },
    ]);
  });

  it("fits the screenshot into WXGA and maps the model's points back exactly", async () => {
    const bigApp = await startApp({ modelBaseUrl: model.baseUrl, config: { ...anthropic, browser: { width: 1600, height: 1000 } } });
    try {
      model.route(taskOf("press on a big screen"), toolUse("Pressing.", { action: "left_click", coordinate: [160, 104] }), endTurn("Pressed."));
      const { json } = await bigApp.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-claude-big", text: "press on a big screen", start_url: pages.url("form.html") });
      const events = await openStream(bigApp.url, "s-claude-big", 0);
      await events.completes(json.task_id);
      events.close();
      await pages.waitForRecord("clicked");
      const first = body(model.requests.filter(taskOf("press on a big screen"))[0]!);
      expect(first.tools![0]).toMatchObject({ display_width_px: 1280, display_height_px: 800 });
      const { json: stored } = await bigApp.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
      expect(stored.steps[0]).toMatchObject({ cursor_x: 200, cursor_y: 130 });
    } finally {
      await bigApp.close();
    }
  });

  it("keeps only the three newest screenshots in the conversation", async () => {
    const moves = [1, 2, 3, 4, 5].map((n) => toolUse(`Move ${n}.`, { action: "mouse_move", coordinate: [100 + n, 100] }));
    const { requests } = await run("s-claude-images", "move around", pages.url("form.html"), ...moves, endTurn("Moved."));
    const last = JSON.stringify(body(requests.at(-1)!).messages);
    expect(last.match(/"type":"image"/g)).toHaveLength(3);
    expect(last).toContain("(an earlier screenshot, no longer shown)");
  });

  it("carries out none of Claude's calls once the person took the screen, and tells it so after Resume", async () => {
    const task = "press and type while I take over";
    const { held, open } = gate();
    const twoCalls = toolUse("", { action: "left_click", coordinate: [200, 130] }, { action: "type", text: "Grace" });
    const [press, type] = [`toolu_${nextId}`, `toolu_${nextId}_2`];
    model.route(taskOf(task), { ...twoCalls, until: held }, endTurn("Left it to you."));
    const clicked = pages.records.filter((r) => r === "clicked").length;
    const events = await openStream(app.url, "s-claude-takeover", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-claude-takeover", text: task, start_url: pages.url("form.html") });
    await expect.poll(() => model.requests.some(taskOf(task)), { timeout: 15_000 }).toBe(true);
    expect((await app.api("POST", "/api/chat/takeover", { task_id: json.task_id })).status).toBe(202);
    open();
    await events.waitFor((e) => e.type === "task.takeover" && e.task_id === json.task_id);
    expect((await app.api("POST", "/api/chat/resume", { task_id: json.task_id })).status).toBe(202);
    expect(await events.completes(json.task_id, 30_000)).toMatchObject({ answer: "Left it to you." });
    events.close();

    expect(pages.records.filter((r) => r === "clicked").length).toBe(clicked);
    expect(pages.records).not.toContain("typed:Grace");
    const results = body(model.requests.filter(taskOf(task))[1]!).messages.at(-1)!.content as { type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }[];
    const notDone = [{ type: "text", text: "Not carried out: the person took over the screen before it." }];
    expect(results.filter((b) => b.type === "tool_result")).toEqual([
      { type: "tool_result", tool_use_id: press, content: notDone, is_error: true },
      { type: "tool_result", tool_use_id: type, content: notDone, is_error: true },
    ]);
    // And it is shown the screen as the person left it.
    expect(results.slice(2).map((b) => b.type)).toEqual(["text", "image"]);
  });

  it("fails the task when the reply is not a message", async () => {
    const { end } = await run("s-claude-bad", "bad reply", pages.url("form.html"), { message: { type: "error", error: { type: "overloaded_error" } } });
    expect(end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect((end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("The Anthropic reply is not a message");
  });
});
