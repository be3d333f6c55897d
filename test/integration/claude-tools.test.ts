// Claude's computer tools as each model is trained on them, against a scripted server speaking the
// Messages API: the toolset for the newest models (one nameless entry, no beta header, member calls
// batched and answered in order, the first failure ending the batch), computer_20251124 with every
// action carried out on a real page (triple click, the button held and released, a held key, zoom at
// the capture's resolution, where the pointer is), and an answer that asks the person to act,
// which waits for them and tells Claude what they answered.
import { describe, expect, it } from "vitest";
import type { MessagesRequest } from "../../src/models/anthropic/messages.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import type { RecordedRequest, Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const anthropic = { model: { provider: "anthropic" as const, name: "claude-test", apiKey: "sk-ant-test" } };
const { model, pages, app } = useWorld({ config: anthropic });

let nextId = 0;
const usage = { input_tokens: 1000, output_tokens: 30 };
type Call = { name: string; input: Record<string, unknown> };
/** A reply of a toolset model: each call its own tool_use, named by the member, of the `computer` toolset. */
const members = (text: string, ...calls: Call[]): Reply => reply(text, calls.map((c, i) => ({ type: "tool_use", id: `toolu_${++nextId}_${i}`, name: c.name, toolset_name: "computer", input: c.input })));
/** A reply using the 2025 `computer` tool: the action in `input.action`. */
const computer = (text: string, ...inputs: Record<string, unknown>[]): Reply => reply(text, inputs.map((input, i) => ({ type: "tool_use", id: `toolu_${++nextId}_${i}`, name: "computer", input })));
const endTurn = (text: string): Reply => reply(text, []);
function reply(text: string, uses: unknown[]): Reply {
  const content = [...(text ? [{ type: "text", text }] : []), ...uses];
  return { message: { id: `msg_${++nextId}`, type: "message", role: "assistant", model: "claude", content, stop_reason: uses.length ? "tool_use" : "end_turn", stop_sequence: null, usage } };
}
const body = (r: RecordedRequest) => r.body as unknown as MessagesRequest;
const taskOf = (task: string) => (r: RecordedRequest) => JSON.stringify(body(r).messages[0]).includes(`Task: ${task}`);
type Block = { type: string; text?: string; tool_use_id?: string; toolset_name?: string; is_error?: boolean; content?: Block[]; source?: { data: string } };
const lastTurn = (r: RecordedRequest) => body(r).messages.at(-1)!.content as Block[];
const imageOf = (block: Block) => imageSize(Buffer.from(block.source!.data, "base64"));

async function run(on: TestApp, session: string, task: string, startUrl: string, modelName: string, ...replies: Reply[]) {
  model.route(taskOf(task), ...replies);
  const sent = { mode: "task", session_id: session, text: task, start_url: startUrl, model: { provider: "anthropic", name: modelName } };
  const { json } = await on.api<{ task_id: string }>("POST", "/api/chat/send", sent);
  const events = await openStream(on.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  const { json: stored } = await on.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { end, requests: model.requests.filter(taskOf(task)), stored };
}

describe("Claude's computer tools", () => {
  it("speaks the toolset to the newest models and answers a batch of member calls in order", async () => {
    const { end, requests, stored } = await run(
      app,
      "s-toolset",
      "fill the form with the toolset",
      pages.url("form.html"),
      "claude-opus-5",
      members("Pressing, typing Ada, then looking.", { name: "left_click", input: { coordinate: [200, 130] } }, { name: "type", input: { text: "Ada" } }, { name: "screenshot", input: {} }),
      members("Reading the status closely.", { name: "zoom", input: { region: [80, 280, 480, 340] } }, { name: "cursor_position", input: {} }),
      endTurn("The form says **Typed Ada**."),
    );
    expect(end).toMatchObject({ type: "task.completed", answer: "The form says **Typed Ada**." });
    await pages.waitForRecord("typed:Ada");
    expect(stored.steps.map((s) => s.action?.type)).toEqual(["click", "type", "done"]);

    expect(requests).toHaveLength(3);
    const first = requests[0]!;
    expect(first.headers["anthropic-beta"]).toBeUndefined();
    expect(first.headers).toMatchObject({ "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01" });
    expect(body(first).tools).toEqual([{ type: "computer_toolset_20260801" }]);
    expect(first.body).not.toHaveProperty("tool_choice");

    // The three calls of one reply, answered together and in order; the screenshot is the screen after both actions.
    const [click, type, shot] = (body(requests[1]!).messages[1]!.content as { id: string }[]).slice(1);
    expect(lastTurn(requests[1]!)).toEqual([
      { type: "tool_result", tool_use_id: click!.id, toolset_name: "computer", content: [{ type: "text", text: "Done: click (200, 130)." }] },
      { type: "tool_result", tool_use_id: type!.id, toolset_name: "computer", content: [{ type: "text", text: 'Done: type "Ada".' }] },
      { type: "tool_result", tool_use_id: shot!.id, toolset_name: "computer", content: [{ type: "image", source: expect.any(Object) }] },
    ]);
    // Looking takes no step: the zoom is the region itself, the pointer where the click left it, then the screen.
    const looked = lastTurn(requests[2]!);
    expect(looked.map((b) => [b.type, b.toolset_name, b.content?.[0]?.type ?? b.text])).toEqual([
      ["tool_result", "computer", "image"],
      ["tool_result", "computer", "text"],
      ["text", undefined, "The screen now:"],
      ["image", undefined, undefined],
    ]);
    expect(imageOf(looked[0]!.content![0]!)).toEqual({ width: 400, height: 60 });
    expect(looked[1]!.content).toEqual([{ type: "text", text: "X=200,Y=130" }]);
  });

  it("ends a toolset batch at its first failure: the calls after it are not carried out", async () => {
    const typedBefore = pages.records.filter((r) => r === "typed:Grace").length;
    const { end, requests } = await run(
      app,
      "s-toolset-fail",
      "click off screen then type",
      pages.url("form.html"),
      "claude-sonnet-5",
      members("Clicking, then typing Grace.", { name: "left_click", input: { coordinate: [5000, 10] } }, { name: "type", input: { text: "Grace" } }),
      endTurn("The click was off the screen."),
    );
    expect(end).toMatchObject({ type: "task.completed" });
    expect(pages.records.filter((r) => r === "typed:Grace")).toHaveLength(typedBefore);
    expect(lastTurn(requests[1]!).slice(0, 2)).toEqual([
      { type: "tool_result", tool_use_id: expect.any(String), toolset_name: "computer", content: [{ type: "text", text: "coordinate (5000, 10) is outside the 1280×800 display" }], is_error: true },
      { type: "tool_result", tool_use_id: expect.any(String), toolset_name: "computer", content: [{ type: "text", text: "Not carried out: an earlier computer action in this turn failed." }], is_error: true },
    ]);
  });

  it("carries out every computer_20251124 action on a real page, and zooms at the capture's resolution", async () => {
    // A 1600×1000 screen is sent as 1280×800 to a model that reads up to ~1.15 MP: points scale by 1.25.
    const big = await startApp({ modelBaseUrl: model.baseUrl, config: { ...anthropic, browser: { width: 1600, height: 1000 } } });
    try {
      const { end, requests, stored } = await run(
        big,
        "s-claude-2511",
        "select, drag, hold and read",
        pages.url("claude-lab.html"),
        "claude-sonnet-4-6",
        computer(
          "Selecting the line, dragging on the pad, holding Shift, then reading the fine print.",
          { action: "triple_click", coordinate: [200, 90] },
          { action: "mouse_move", coordinate: [120, 200] },
          { action: "left_mouse_down" },
          { action: "mouse_move", coordinate: [240, 240] },
          { action: "left_mouse_up" },
          { action: "hold_key", text: "shift", duration: 1 },
          { action: "zoom", region: [560, 400, 760, 450] },
          { action: "cursor_position" },
        ),
        endTurn("The fine print says order code 4711."),
      );
      expect(end).toMatchObject({ type: "task.completed" });
      await pages.waitForRecord("selected:Alpha beta gamma delta");
      await pages.waitForRecord("dragged:150,250->300,300");
      // A second's hold, give or take what a busy machine adds.
      expect(pages.records.find((r) => r.startsWith("held:Shift:"))).toMatch(/^held:Shift:(9|1[0-5])00$/);
      expect(stored.steps.map((s) => s.action?.type)).toEqual(["triple_click", "move", "drag", "hold_key", "done"]);

      const first = requests[0]!;
      expect(first.headers["anthropic-beta"]).toBe("computer-use-2025-11-24");
      expect(body(first).tools).toEqual([{ type: "computer_20251124", name: "computer", display_width_px: 1280, display_height_px: 800, enable_zoom: true }]);
      const results = lastTurn(requests[1]!);
      // Each action's result is the screen after it (only the three newest stay images); pressing and moving are held.
      expect(results.map((b) => b.content?.[0]?.text ?? b.content?.[0]?.type)).toEqual([
        "(an earlier screenshot, no longer shown)",
        "(an earlier screenshot, no longer shown)",
        "The left button is down at (120, 200).",
        "Moved with the left button down.",
        "image",
        "image",
        "image",
        "X=240,Y=240",
      ]);
      expect(results.every((b) => b.type === "tool_result" && b.toolset_name === undefined && !b.is_error)).toBe(true);
      // 200×50 of the model's image is 250×63 of the capture: the zoom shows what scaling had taken away.
      expect(imageOf(results[6]!.content![0]!)).toEqual({ width: 250, height: 63 });
    } finally {
      await big.close();
    }
  });

  it("waits for the person when Claude asks them to act, and tells Claude what they answered", async () => {
    const task = "buy the book";
    model.route(taskOf(task), endTurn("NEEDS_USER: Please sign in to the shop, then press I've done it."), endTurn("You are signed in; the book is in the basket."));
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-claude-ask", text: task, start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-claude-ask", 0);
    const asked = await events.waitFor((e) => e.type === "task.awaiting_user");
    expect(asked).toMatchObject({ answer: "Please sign in to the shop, then press I've done it." });
    expect((await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json.task.status).toBe("awaiting_user");

    expect((await app.api("POST", "/api/chat/ack-user-action", { task_id: json.task_id, text: "signed in as Ada" })).status).toBe(202);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "You are signed in; the book is in the basket." });
    events.close();
    const told = lastTurn(model.requests.filter(taskOf(task))[1]!);
    expect(told.map((b) => b.text ?? b.type)).toEqual(["The person answered: signed in as Ada", "The screen now:", "image"]);
  });
});
