// Qwen3-VL in its own dialect under MODEL_PROVIDER=qwen: the published computer_use tool in the
// system prompt, <tool_call> answers whose 0–1000 points land where they mean on the 1280×800
// page, a garbled answer sent back and never carried out, and ask_user handing the task to the
// person until they say they have done it.
import { describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { planningText, systemText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// Long enough that an answered request on a busy machine is not taken for a hanging one.
const { model, pages, app } = useWorld({ config: { model: { provider: "qwen", name: "qwen3-vl-235b-a22b-instruct", timeoutMs: 2_500 } } });
const calls = (thought: string, ...args: Record<string, unknown>[]): Reply => ({
  text: `Thought: ${thought}\nAction: "${thought}"\n${args.map((a) => `<tool_call>\n${JSON.stringify({ name: "computer_use", arguments: a })}\n</tool_call>`).join("\n")}`,
});

describe("Qwen3-VL", () => {
  it("runs a task on a real page from its computer_use calls on the 0–1000 grid, asks the person and resumes", async () => {
    const isTask = (r: RecordedRequest) => planningText(r).includes("Task: fill the form natively");
    model.route(
      isTask,
      { text: `Thought: Run a command first.\nAction: "Clean up."\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "run_shell", "text": "rm -rf /"}}\n</tool_call>` },
      // The button's centre (200, 130) of 1280×800 is (156, 163) on the grid.
      calls("Press the button.", { action: "left_click", coordinate: [156, 163] }),
      calls("The person must sign in first.", { action: "ask_user", text: "Please sign in, then press I've done it." }),
      // The field's centre (250, 240) is (195, 300); two calls, one step each.
      calls("Type the name.", { action: "left_click", coordinate: [195, 300] }, { action: "type", text: "Ada" }),
      calls("The form shows the name.", { action: "answer", text: "Typed **Ada**." }),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-qwen3", text: "fill the form natively", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-qwen3", 0);
    const asked = await events.waitFor((e) => e.type === "task.awaiting_user");
    expect(asked).toMatchObject({ answer: "Please sign in, then press I've done it." });
    await pages.waitForRecord("clicked");
    expect((await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json.task.status).toBe("awaiting_user");

    expect((await app.api("POST", "/api/chat/ack-user-action", { task_id: json.task_id })).status).toBe(202);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "Typed **Ada**." });
    events.close();
    await pages.waitForRecord("typed:Ada");
    expect(pages.records.filter((r) => r === "clicked")).toHaveLength(1);

    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => [s.action?.type, s.planner])).toEqual([
      ["click", "qwen:qwen3-vl-235b-a22b-instruct"],
      ["needs_user", "qwen:qwen3-vl-235b-a22b-instruct"],
      ["click", "qwen:qwen3-vl-235b-a22b-instruct"],
      ["type", "qwen:qwen3-vl-235b-a22b-instruct"],
      ["done", "qwen:qwen3-vl-235b-a22b-instruct"],
    ]);
    expect(stored.steps[0]).toMatchObject({ cursor_x: 200, cursor_y: 130 });
    expect(stored.steps[2]).toMatchObject({ cursor_x: 250, cursor_y: 240 });

    const requests = model.requests.filter(isTask);
    // The refused call, the click, the question, the field and the answer: the two calls of one answer cost one request.
    expect(requests).toHaveLength(5);
    const system = systemText(requests[0]!);
    expect(system).toContain('"name":"computer_use"');
    expect(system).toContain("The screen's resolution is 1000x1000.");
    expect(system).toContain("<tool_call>");
    expect(requests[0]!.body.response_format).toBeUndefined();
    expect(userText(requests[1]!)).toContain("That answer could not be used: arguments.action: action must be one of");
    expect(planningText(requests[3]!)).toContain("The person was asked to act and answered");
  });

  async function run(task: string, ...replies: Reply[]) {
    const mine = (r: RecordedRequest) => planningText(r).includes(`Task: ${task}`);
    model.route(mine, ...replies);
    const session = `s-${task.replace(/\W+/g, "-")}`;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
    const events = await openStream(app.url, session, 0);
    const end = await events.waitForEnd(json.task_id);
    events.close();
    return { end, requests: model.requests.filter(mine) };
  }
  const finished = calls("Nothing to do.", { action: "terminate", status: "success" });

  it.each([
    ["a 429, after its retry-after", { status: 429, headers: { "retry-after": "1" } }],
    ["a 500", { status: 500, body: '{"error":"boom"}' }],
    ["a request hanging past the timeout", { ...finished, delayMs: 5_000 }],
  ] as const)("asks again after %s", async (what, failure) => {
    const { end, requests } = await run(`native ${what}`, failure, finished);
    expect(end).toMatchObject({ type: "task.completed", answer: "Nothing to do." });
    expect(requests).toHaveLength(2);
    if (what.startsWith("a 429")) expect(requests[1]!.at - requests[0]!.answeredAt!).toBeGreaterThanOrEqual(950);
  });

  it("fails the task at once on a body that is not JSON, and after the repairs on answers still unusable", async () => {
    const bad = await run("native malformed", { status: 200, body: "<html>bad gateway</html>" });
    expect(bad.end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect(bad.requests).toHaveLength(1);
    const garbage = { text: "Thought: hmm\n<tool_call>\nos.system('reboot')\n</tool_call>" };
    const unusable = await run("native garbage", garbage, garbage, garbage);
    expect(unusable.end).toMatchObject({ type: "task.failed", error: { code: "PLANNER_INVALID_OUTPUT" } });
    expect((unusable.end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("not valid JSON");
    expect(unusable.requests).toHaveLength(3);
  });
});
