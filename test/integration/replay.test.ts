// Run again (the act cache): a tool-agent task replays from its recording without the model,
// finding each element again by its recorded locator; when the page has changed so that an
// element is gone, only that step asks the model (self-heal), and the result says which steps
// were replayed and which were healed.
import { describe, expect, it } from "vitest";
import type { SendReply, TaskReply } from "../../src/protocol/index.ts";
import { systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// A generous model timeout: the scripted model runs in this process, and a long synchronous stretch
// (the tokenizer loading on a busy machine) would fire a short one first, and the retry would take the next answer.
const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 } } });

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const chooser = (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes("changing.html");
const choose = (role: string, name: string, method: string, value?: string): Responder => (r) => {
  const ref = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in the tree`);
  return { text: JSON.stringify({ ref, method, ...(value === undefined ? {} : { value }) }) };
};

async function untilEnd(session: string, taskId: string) {
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(taskId, 30_000);
  events.close();
  return { end, stored: (await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json };
}

describe("Run again", () => {
  it("replays without the model, and heals the one step whose element changed", async () => {
    pages.setVariant("1");
    const goal = "Enter Ada and continue";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      calls(["act", { action: "type Ada into the Name field" }]),
      calls(["act", { action: "click Continue" }]),
      calls(["close", { reasoning: "Entered Ada and continued.", taskComplete: true }]),
    );
    model.route(chooser, choose("textbox", "Name", "fill", "Ada"), choose("button", "Continue", "click"));
    const first = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-replay", text: goal, start_url: pages.url("changing.html") });
    const original = await untilEnd("s-replay", first.json.task_id!);
    expect(original.end).toMatchObject({ type: "task.completed" });
    expect(original.stored.steps[1]!.tool!.targets).toEqual([
      { target: { locator: "getByRole('textbox', { name: 'Name' })", xpath: '//*[@id="name"]', box: expect.any(Object) }, action: { kind: "fill", value: "Ada" } },
    ]);
    await pages.waitForRecord("continued");

    // The page changes: its button is renamed and moved. Only that step may ask the model.
    pages.setVariant("2");
    pages.records.length = 0;
    const before = model.requests.length;
    model.route(chooser, choose("button", "Next step", "click"));
    const again = await app.api<SendReply>("POST", "/api/chat/replay", { task_id: first.json.task_id });
    expect(again.status).toBe(202);
    const replay = await untilEnd("s-replay", again.json.task_id!);
    expect(replay.end).toMatchObject({ type: "task.completed" });
    expect(replay.stored.task).toMatchObject({ replay_of: first.json.task_id, text: goal, mode: "dom" });
    expect((replay.end as { answer: string }).answer).toBe("Entered Ada and continued.\n\n_Run again: replayed step 2 without the model; healed step 3 with the model._");
    await pages.waitForRecord("name:Ada");
    await pages.waitForRecord("continued");
    expect(replay.stored.steps.map((s) => [s.tool?.name, s.tool?.replay])).toEqual([
      ["act", "replayed"],
      ["act", "healed"],
    ]);
    expect(replay.stored.steps[1]!.text).toContain("healed");
    const asked = model.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(systemText(asked[0]!)).toMatch(/^You choose elements/);

    const messages = (await app.api<{ messages: { text: string; task_id: string | null }[] }>("GET", "/api/sessions/s-replay/messages")).json.messages;
    expect(messages.filter((m) => m.task_id === again.json.task_id).map((m) => m.text)).toContain("Run again");
  });

  it("replays a click at a point on the element's new place when the page has moved it", async () => {
    pages.setVariant("1");
    const goal = "Press Continue on the screen";
    // Continue is centred at (90, 201) in version 1; the banner moves it 140 px down.
    model.route(agentOf(goal), calls(["screenshot", {}]), calls(["click", { describe: "the Continue button", coordinates: [90, 201] }]), calls(["close", { reasoning: "Pressed Continue.", taskComplete: true }]));
    const first = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-replay-moved", text: goal, start_url: pages.url("changing.html") });
    expect((await untilEnd("s-replay-moved", first.json.task_id!)).end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("continued");

    pages.setVariant("3");
    pages.records.length = 0;
    const before = model.requests.length;
    const again = await app.api<SendReply>("POST", "/api/chat/replay", { task_id: first.json.task_id });
    const replay = await untilEnd("s-replay-moved", again.json.task_id!);
    expect(replay.end).toMatchObject({ type: "task.completed", answer: expect.stringContaining("replayed step 2 without the model._") });
    await pages.waitForRecord("continued");
    expect(model.requests.length).toBe(before);
    const click = replay.stored.steps[0]!;
    expect(click.tool).toMatchObject({ name: "click", label: 'click "the Continue button"', replay: "replayed" });
    expect(click.cursor_y! - 201).toBeGreaterThan(100);
    // A replayed click is checked as the first run's was: the hit test on the recorded element, then its effect.
    expect(click.verification).toMatchObject({ verified: true, model_calls: 0, attempts: [{ method: "hit_test", on_target: true }] });
    expect(click.effect).toMatchObject({ changed: true });
  });

  it("clicks each recorded element where it is when its turn comes, though the actions before it scrolled the page", async () => {
    const goal = "Sign Ada up for Pro";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      // Pro is below the fold and First name at the top: filling First name scrolls back up.
      calls(["fillForm", { fields: [{ action: "the Pro plan", value: "true" }, { action: "the First name field", value: "Ada" }] }]),
      calls(["act", { action: "click the Submit button" }]),
      calls(["close", { reasoning: "Signed Ada up for Pro.", taskComplete: true }]),
    );
    const form = (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes("long-form.html");
    const refOf = (r: RecordedRequest, role: string, name: string) => new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))![1];
    model.route(
      form,
      (r) => ({ text: JSON.stringify({ fields: [{ ref: refOf(r, "radio", "Pro"), method: "click" }, { ref: refOf(r, "textbox", "First name"), method: "fill", value: "Ada" }] }) }),
      choose("button", "Submit", "click"),
    );
    const signedUp = `submitted:${JSON.stringify({ firstName: "Ada", lastName: "", email: "", phone: "", dob: "", street: "", city: "", postcode: "", country: "", plan: "pro", about: "", terms: false })}`;
    const first = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-replay-scrolled", text: goal, start_url: pages.url("long-form.html") });
    expect((await untilEnd("s-replay-scrolled", first.json.task_id!)).end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord(signedUp);

    pages.records.length = 0;
    const before = model.requests.length;
    const again = await app.api<SendReply>("POST", "/api/chat/replay", { task_id: first.json.task_id });
    const replay = await untilEnd("s-replay-scrolled", again.json.task_id!);
    expect(replay.end).toMatchObject({ type: "task.completed", answer: expect.stringContaining("replayed steps 2, 3 without the model._") });
    await pages.waitForRecord(signedUp);
    expect(model.requests.length).toBe(before);
  });

  it("takes only completed tasks", async () => {
    expect((await app.api("POST", "/api/chat/replay", { task_id: "task_nope" })).status).toBe(404);
  });
});
