// OpenAI computer use, against a scripted server speaking the Responses API: the request carries
// the computer tool, the task and the screenshot, and later `previous_response_id` with a
// `computer_call_output` (screenshot and current URL); single actions (computer_use_preview) and
// batched ones (the GA computer tool) drive a real page.
import { describe, expect, it } from "vitest";
import type { ResponsesRequest } from "../../src/models/openai/responses.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import type { RecordedRequest, Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";
import { gate } from "../support/gate.ts";

const preview = { model: { provider: "openai" as const, name: "computer-use-preview", apiKey: "sk-test" } };
const { model, pages, app } = useWorld({ config: preview });

let n = 0;
const usage = { input_tokens: 900, output_tokens: 30, total_tokens: 930 };
const call = (summary: string, action: Record<string, unknown> | Record<string, unknown>[], checks: unknown[] = []): Reply => {
  const id = ++n;
  const actions = Array.isArray(action) ? { actions: action } : { action };
  return {
    message: {
      id: `resp_${id}`,
      object: "response",
      status: "completed",
      output: [
        ...(summary ? [{ type: "reasoning", id: `rs_${id}`, summary: [{ type: "summary_text", text: summary }] }] : []),
        { type: "computer_call", id: `cu_${id}`, call_id: `call_${id}`, ...actions, pending_safety_checks: checks, status: "completed" },
      ],
      usage,
    },
  };
};
const say = (text: string): Reply => ({
  message: {
    id: `resp_${++n}`,
    object: "response",
    status: "completed",
    output: [{ type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
    usage,
  },
});
const body = (r: RecordedRequest) => r.body as unknown as ResponsesRequest;
// Tasks in this file run one after another, so one queue of replies serves them all.
async function run(target: typeof app, session: string, task: string, ...replies: Reply[]) {
  const start = model.requests.length;
  model.script(...replies);
  const { json } = await target.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
  const events = await openStream(target.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  const { json: stored } = await target.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { end, requests: model.requests.slice(start), stored };
}

describe("OpenAI computer use", () => {
  it("computer_use_preview: one action per call, chained with previous_response_id", async () => {
    const { end, requests, stored } = await run(
      app,
      "s-cua",
      "fill in the form",
      call("Pressing the button.", { type: "click", button: "left", x: 200, y: 130 }),
      call("Typing the name.", { type: "type", text: "Ada" }),
      call("", { type: "screenshot" }),
      say("Done: the form says **Typed Ada**."),
    );
    expect(end).toMatchObject({ type: "task.completed", answer: "Done: the form says **Typed Ada**." });
    await pages.waitForRecord("typed:Ada");
    expect(stored.steps.map((s) => [s.action?.type, s.text, s.planner])).toEqual([
      ["click", "Pressing the button.", "openai:computer-use-preview"],
      ["type", "Typing the name.", "openai:computer-use-preview"],
      ["done", "Done: the form says **Typed Ada**.", "openai:computer-use-preview"],
    ]);

    expect(requests).toHaveLength(4);
    const first = requests[0]!;
    expect(first.path).toBe("/v1/responses");
    expect(first.headers.authorization).toBe("Bearer sk-test");
    expect(body(first)).toMatchObject({
      model: "computer-use-preview",
      tools: [{ type: "computer_use_preview", display_width: 1280, display_height: 800, environment: "browser" }],
      truncation: "auto",
      reasoning: { summary: "concise" },
    });
    expect(body(first).previous_response_id).toBeUndefined();
    expect(body(first).instructions).toContain("computer tool");
    expect(body(first).input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "Task: fill in the form" }, { type: "input_image", image_url: expect.stringMatching(/^data:image\/jpeg;base64,/) }] },
    ]);
    const second = body(requests[1]!);
    expect(second.previous_response_id).toBe(`resp_${n - 3}`);
    expect(second.input).toEqual([
      {
        type: "computer_call_output",
        call_id: `call_${n - 3}`,
        output: { type: "computer_screenshot", image_url: expect.stringMatching(/^data:image\/jpeg;base64,/), current_url: pages.url("form.html") },
      },
    ]);
    const output = second.input[0] as { output: { image_url: string } };
    expect(imageSize(Buffer.from(output.output.image_url.split(",")[1]!, "base64"))).toEqual({ width: 1280, height: 800 });
    // The screenshot action is answered with the screen at once, without a step.
    expect(body(requests[3]!).input).toEqual([expect.objectContaining({ type: "computer_call_output", call_id: `call_${n - 1}` })]);
  });

  it("the GA computer tool: a batch of actions runs one step each, then the model is asked again", async () => {
    const ga = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "openai", name: "gpt-5.5", apiKey: "sk-test" } } });
    try {
      const { end, requests, stored } = await run(
        ga,
        "s-cua-ga",
        "fill it in one go",
        call("Filling in the form.", [
          { type: "click", button: "left", x: 200, y: 130 },
          { type: "type", text: "Grace" },
          { type: "keypress", keys: ["ENTER"] },
        ]),
        say("Filled in."),
      );
      expect(end).toMatchObject({ type: "task.completed", answer: "Filled in." });
      await pages.waitForRecord("typed:Grace");
      expect(requests).toHaveLength(2);
      expect(body(requests[0]!).tools).toEqual([{ type: "computer" }]);
      expect(body(requests[0]!).reasoning).toBeUndefined();
      expect(stored.steps.map((s) => s.action?.type)).toEqual(["click", "type", "keypress", "done"]);
    } finally {
      await ga.close();
    }
  });

  it("tells the model what the person added, and drops the rest of the batch it planned before", async () => {
    const { held, open: release } = gate();
    const start = model.requests.length;
    model.script({ ...call("Typing the name.", [{ type: "click", button: "left", x: 200, y: 130 }, { type: "type", text: "Ada" }]), until: held }, say("Typed nothing yet."));
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cua-follow", text: "type a name", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-cua-follow", 0);
    while (model.requests.length === start) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await app.api("POST", "/api/chat/send", { mode: "task", session_id: "s-cua-follow", text: "use Grace, not Ada" })).status).toBe(202);
    await events.waitFor((e) => e.type === "task.follow_up");
    release();
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "Typed nothing yet." });
    events.close();
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((step) => step.action?.type)).toEqual(["click", "done"]);
    const input = body(model.requests[start + 1]!).input;
    expect(input[0]).toMatchObject({ type: "computer_call_output" });
    expect(JSON.stringify(input[1])).toContain("- use Grace, not Ada");
    expect(JSON.stringify(input[1])).toContain("not carried out");
  });

  it("a flagged action waits for the person: approved, it runs and the check is acknowledged", async () => {
    const check = { id: "cu_sc_1", code: "malicious_instructions", message: "The page contains instructions that differ from your task." };
    const start = model.requests.length;
    const clicksBefore = pages.records.filter((r) => r === "clicked").length;
    model.script(call("Pressing the button.", { type: "click", button: "left", x: 200, y: 130 }, [check]), say("Pressed."));
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cua-approve", text: "press it", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-cua-approve", 0);
    const asked = (await events.waitFor((e) => e.type === "approval.requested")) as Extract<SessionEvent, { type: "approval.requested" }>;
    expect(asked.approval).toMatchObject({ checks: [check], action: { type: "click", args: { x: 200, y: 130 } } });
    const { json: waiting } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(waiting.task).toMatchObject({ status: "awaiting_user", approval: { id: asked.approval.id } });
    expect(pages.records.filter((r) => r === "clicked")).toHaveLength(clicksBefore);

    const wrong = await app.api<{ error: { code: string } }>("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: "appr_other", approved: true });
    expect(wrong.status).toBe(409);
    expect(wrong.json.error.code).toBe("NO_SUCH_APPROVAL");
    const approved = await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: true });
    expect(approved.status).toBe(202);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "Pressed." });
    events.close();
    expect(pages.records.filter((r) => r === "clicked")).toHaveLength(clicksBefore + 1);
    const next = body(model.requests.slice(start)[1]!);
    expect(next.input[0]).toMatchObject({ type: "computer_call_output", acknowledged_safety_checks: [check] });
  });

  it("a flagged action the person refuses never runs, and the task stops saying why", async () => {
    const check = { id: "cu_sc_2", code: "irrelevant_domain", message: "The site is unrelated to the task." };
    model.script(call("Typing.", { type: "type", text: "secret" }, [check]));
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cua-deny", text: "type it", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-cua-deny", 0);
    const asked = (await events.waitFor((e) => e.type === "approval.requested")) as Extract<SessionEvent, { type: "approval.requested" }>;
    await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: false });
    expect(await events.waitForEnd(json.task_id)).toMatchObject({
      type: "task.stopped",
      reason: "the person did not approve: The site is unrelated to the task.",
    });
    events.close();
    expect(pages.records).not.toContain("typed:secret");
  });

  it("a message asking the person to act waits for them; once they have done it, the model is told and sees the screen", async () => {
    const start = model.requests.length;
    model.script(
      say("The form needs you first: please sign in to your account, then tell me when it is done."),
      call("Pressing the button.", { type: "click", button: "left", x: 200, y: 130 }),
      say("Pressed the button."),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cua-ask", text: "press it once signed in", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-cua-ask", 0);
    expect(await events.waitFor((e) => e.type === "task.awaiting_user")).toMatchObject({
      answer: "The form needs you first: please sign in to your account, then tell me when it is done.",
    });
    const { json: waiting } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(waiting.task.status).toBe("awaiting_user");
    expect(model.requests.length - start).toBe(1);

    expect((await app.api("POST", "/api/chat/ack-user-action", { task_id: json.task_id })).status).toBe(202);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "Pressed the button." });
    events.close();
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => s.action?.type)).toEqual(["needs_user", "click", "done"]);
    const resumed = body(model.requests.slice(start)[1]!);
    expect(resumed.previous_response_id).toBe(`resp_${n - 2}`);
    expect(resumed.input).toEqual([
      { role: "user", content: [{ type: "input_image", image_url: expect.stringMatching(/^data:image\/jpeg;base64,/) }] },
      { role: "user", content: [{ type: "input_text", text: expect.stringContaining("The person was asked to act and answered") }] },
    ]);
  });

  it("fails the task when the reply is not a response", async () => {
    const { end } = await run(app, "s-cua-bad", "bad reply", { message: { error: { message: "overloaded" } } });
    expect(end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect((end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("The OpenAI reply is not a response");
  });
});
