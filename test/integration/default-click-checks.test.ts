// Every planner family's clicks on a page are pointer-checked by default, not only the JSON
// planner's: a click whose point no longer holds what the model aimed at (a button that is drawn
// anew elsewhere when the pointer reaches it) is not made, and the person is asked instead; a click
// on a button that stays put is confirmed by the hit test and made once. None of these models can
// look at the pointer, so no model call is added.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelChoice, SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { planningText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
beforeAll(async () => {
  const at = { baseUrl: model.baseUrl, apiKey: "test-key" };
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { uitarsVersion: "1.0" }, providers: { uitars: at, opencua: at, anthropic: at, openai: at } } });
});
afterAll(() => app.close());

// jumpy.html on the 1280×800 screen: "Runs away" is centred at (180, 425) and drawn anew 200 px
// further right whenever the pointer enters it; "Still" is centred at (180, 625) and stays put.
const RUNNER = { x: 180, y: 425 };
const STILL = { x: 180, y: 625 };

let n = 0;
const claude = (content: unknown[], stop: "tool_use" | "end_turn"): Reply => ({
  message: { id: `msg_${++n}`, type: "message", role: "assistant", model: "claude-test", content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } },
});
const claudeClick = (at: { x: number; y: number }) => claude([{ type: "text", text: "Pressing it." }, { type: "tool_use", id: `toolu_${++n}`, name: "computer", input: { action: "left_click", coordinate: [at.x, at.y] } }], "tool_use");
const openai = (output: unknown[]): Reply => ({ message: { id: `resp_${++n}`, object: "response", status: "completed", output, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } });
const openaiClick = (at: { x: number; y: number }) =>
  openai([{ type: "computer_call", id: `cu_${++n}`, call_id: `call_${n}`, action: { type: "click", button: "left", ...at }, pending_safety_checks: [], status: "completed" }]);

interface Family {
  choice: ModelChoice;
  /** Which of the scripted server's requests are this family's for the task. */
  requests(task: string): (r: RecordedRequest) => boolean;
  click(at: { x: number; y: number }): Reply;
  finish: Reply;
}

const chatTask = (task: string) => (r: RecordedRequest) => r.path.endsWith("/chat/completions") && planningText(r).includes(`Task: ${task}`);
const FAMILIES: Record<string, Family> = {
  "UI-TARS": {
    choice: { provider: "uitars", name: "ui-tars-test" },
    requests: chatTask,
    // UI-TARS 1.0 points on a 0–1000 grid.
    click: (at) => ({ text: `Thought: Press it.\nAction: click(start_box='(${Math.round((at.x / 1280) * 1000)},${Math.round((at.y / 800) * 1000)})')` }),
    finish: { text: "Thought: Done.\nAction: finished(content='Pressed.')" },
  },
  OpenCUA: {
    choice: { provider: "opencua", name: "opencua-test" },
    requests: chatTask,
    click: (at) => ({ text: `## Thought:\nPress it.\n## Action:\nPress it.\n## Code:\n\`\`\`python\npyautogui.click(x=${at.x / 1280}, y=${at.y / 800})\n\`\`\`` }),
    finish: { text: "## Thought:\nDone.\n## Action:\nFinish.\n## Code:\n```python\ncomputer.terminate(status='success', answer='Pressed.')\n```" },
  },
  Anthropic: {
    choice: { provider: "anthropic", name: "claude-test" },
    requests: () => (r) => r.path.endsWith("/v1/messages"),
    click: claudeClick,
    finish: claude([{ type: "text", text: "Pressed." }], "end_turn"),
  },
  OpenAI: {
    choice: { provider: "openai", name: "computer-use-preview" },
    requests: () => (r) => r.path.endsWith("/responses"),
    click: openaiClick,
    finish: openai([{ type: "message", id: `msg_${++n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: "Pressed.", annotations: [] }] }]),
  },
};

async function start(family: Family, session: string, task: string) {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("jumpy.html"), model: family.choice });
  return { taskId: json.task_id, events: await openStream(app.url, session, 0) };
}

describe.each(Object.keys(FAMILIES))("%s's clicks, by default", (name) => {
  const family = FAMILIES[name]!;
  const slug = name.toLowerCase().replace(/\W+/g, "-");

  it("are not made where the hit test finds the target gone from the point: the person is asked instead", async () => {
    const task = `press the runner with ${slug}`;
    model.route(family.requests(task), family.click(RUNNER), family.finish);
    const { taskId, events } = await start(family, `s-default-runner-${slug}`, task);
    const waiting = (await events.waitFor((e) => e.type === "task.awaiting_user")) as Extract<SessionEvent, { type: "task.awaiting_user" }>;
    expect(waiting.answer).toContain("so I did not click. Please click it yourself");
    expect(pages.records).not.toContain("runner-clicked");
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.steps[0]?.verification).toMatchObject({ verified: false, model_calls: 0, attempts: [{ method: "hit_test", on_target: false }] });
    await app.api("POST", "/api/chat/ack-user-action", { task_id: taskId });
    await events.completes(taskId);
    events.close();
    expect(pages.records).not.toContain("runner-clicked");
  });

  it("are confirmed by the hit test on a target that stays put, and made once", async () => {
    const task = `press still with ${slug}`;
    const before = pages.records.filter((r) => r === "still-clicked").length;
    model.route(family.requests(task), family.click(STILL), family.finish);
    const { taskId, events } = await start(family, `s-default-still-${slug}`, task);
    await events.completes(taskId);
    events.close();
    await pages.waitForRecord("still-clicked");
    expect(pages.records.filter((r) => r === "still-clicked").length).toBe(before + 1);
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.steps[0]).toMatchObject({ cursor_x: STILL.x, cursor_y: STILL.y, effect: { changed: true, retries: 0 } });
    expect(json.steps[0]?.verification).toMatchObject({ verified: true, model_calls: 0, attempts: [{ method: "hit_test", on_target: true }] });
  });
});

// Checked by default, a click must not be refused for what a hover does to a button on many sites.
describe("the default hit test on buttons that change under the pointer", () => {
  const family = FAMILIES["UI-TARS"]!;
  it.each([
    ["grows", "grow", { x: 180, y: 125 }],
    ["rises a little", "lift", { x: 180, y: 325 }],
    ["is drawn anew in place", "redraw", { x: 180, y: 525 }],
  ] as const)("clicks a button that %s on hover, once, without asking anyone", async (_, id, at) => {
    const task = `press ${id} on hover`;
    model.route(family.requests(task), family.click(at), family.finish);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: `s-hover-${id}`, text: task, start_url: pages.url("hover-styles.html"), model: family.choice });
    const events = await openStream(app.url, `s-hover-${id}`, 0);
    const end = await events.waitForEnd(json.task_id);
    events.close();
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord(`${id}-clicked`);
    expect(pages.records.filter((r) => r === `${id}-clicked`)).toHaveLength(1);
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    // Held at the first try: the hover changed the button, not where a click lands.
    expect(stored.steps[0]?.verification).toMatchObject({ verified: true, model_calls: 0, attempts: [{ method: "hit_test", on_target: true }] });
  });
});
