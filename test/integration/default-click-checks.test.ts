// Every planner family's clicks on a page are pointer-checked by default, not only the JSON
// planner's (Set-of-Mark, UI-TARS, OpenCUA, GLM-4.5V, OpenAI's and Gemini's computer use): a click whose point no longer holds what the model aimed at (a button that is drawn
// anew elsewhere when the pointer reaches it) is not made, and the person is asked instead; a click
// on a button that stays put is confirmed by the hit test and made once. None of these models can
// look at the pointer, so no model call is added.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { everyFamilyAt, PLANNER_FAMILIES, type PlannerFamily } from "../support/planner-families.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl, config: everyFamilyAt(model.baseUrl) });
});
afterAll(() => app.close());

// jumpy.html on the 1280×800 screen: "Runs away" is centred at (180, 425) and drawn anew 200 px
// further right whenever the pointer enters it; "Still" is centred at (180, 625) and stays put.
const RUNNER = { x: 180, y: 425 };
const STILL = { x: 180, y: 625 };
// The JSON planner's and Claude's models look where the hit test fails (verified-click.test.ts, anthropic.test.ts); these cannot.
const { "JSON planner": _looks, Anthropic: _claudeLooks, ...FAMILIES } = PLANNER_FAMILIES as Record<string, PlannerFamily>;

async function start(family: PlannerFamily, session: string, task: string) {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("jumpy.html"), model: family.choice });
  return { taskId: json.task_id, events: await openStream(app.url, session, 0) };
}

describe.each(Object.keys(FAMILIES))("%s's clicks, by default", (name) => {
  const family = FAMILIES[name]!;
  const slug = name.toLowerCase().replace(/\W+/g, "-");

  it("are not made where the hit test finds the target gone from the point: the person is asked instead", async () => {
    const task = `press the runner with ${slug}`;
    model.route(family.requests(task), family.click(RUNNER), family.finish());
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
    model.route(family.requests(task), family.click(STILL), family.finish());
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
    model.route(family.requests(task), family.click(at), family.finish());
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
