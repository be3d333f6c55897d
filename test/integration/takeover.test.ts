// Takeover (seed 004 §2) on the embedded browser: the person asks for the screen while the agent
// runs, the agent carries out nothing it planned from then on and stops after its step
// (`takeover`), the person's clicks and keys on the live view reach the page, and once they hand
// it back the agent looks again and sees what they did. A task that asks the person to act takes
// their input too, the tool agent's askUser as the planner's needs_user; one that is neither
// refuses it plainly.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { gate } from "../support/gate.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const post = (path: string, body: unknown) => app.api<{ error?: { code: string; message: string } }>("POST", path, body);

describe("takeover on the embedded browser", () => {
  it("pauses the tool agent before it carries out more, takes the person's input, and the agent sees it after Resume", async () => {
    const goal = "read the name field";
    let stepDone = () => {};
    const held = new Promise<void>((resolve) => (stepDone = resolve));
    model.route(
      agentOf(goal),
      // A reply whose close would claim the key was pressed: both are held back.
      { ...calls(["keys", { method: "press", value: "Tab" }], ["close", { reasoning: "Pressed Tab.", taskComplete: true }]), until: held },
      calls(["ariaTree", {}]),
      calls(["close", { reasoning: "The field says hello from me.", taskComplete: true }]),
    );
    const events = await openStream(app.url, "s-takeover", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-takeover", text: goal, start_url: pages.url("form.html") });
    const task_id = json.task_id;
    await events.waitFor((e) => e.type === "screen.live" && e.task_id === task_id);

    // The screen is the agent's until the task stops for the person, who asks for it while the model thinks.
    expect((await post("/api/chat/input", { task_id, input: { kind: "type", text: "x" } })).json.error?.code).toBe("TASK_NOT_TAKEN_OVER");
    await expect.poll(() => model.requests.some(agentOf(goal)), { timeout: 15_000 }).toBe(true);
    expect((await post("/api/chat/takeover", { task_id })).status).toBe(202);
    stepDone();
    await events.waitFor((e) => e.type === "task.takeover" && e.task_id === task_id);
    expect((await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json.task.status).toBe("takeover");

    // The person clicks the field on the live view (frame pixels) and types into it.
    expect((await post("/api/chat/input", { task_id, input: { kind: "click", x: 250, y: 240 } })).status).toBe(202);
    expect((await post("/api/chat/input", { task_id, input: { kind: "type", text: "hello from me" } })).status).toBe(202);
    await pages.waitForRecord("typed:hello from me");
    expect((await post("/api/chat/input", { task_id, input: { kind: "key", keys: ["Tab"] } })).status).toBe(202);
    expect((await post("/api/chat/input", { task_id, input: { kind: "jump" } })).status).toBe(400);

    expect((await post("/api/chat/resume", { task_id })).status).toBe(202);
    expect(await events.completes(task_id, 30_000)).toMatchObject({ answer: "The field says hello from me." });
    events.close();
    const kinds = events.events.filter((e) => "task_id" in e && e.task_id === task_id).map((e) => e.type);
    expect(kinds.indexOf("task.takeover")).toBeLessThan(kinds.indexOf("task.resumed"));

    const requests = model.requests.filter(agentOf(goal));
    // The call it made while the person took the screen was not carried out; after the takeover the
    // model is told, and the tree it reads shows what the person typed.
    expect(JSON.stringify(requests[1]!.body.messages)).toContain("TAKEN_OVER");
    expect(userText(requests[1]!)).toContain("The person took over the screen and handed it back");
    expect(JSON.stringify(requests[2]!.body.messages)).toContain("hello from me");
    expect((await post("/api/chat/resume", { task_id })).json.error?.code).toBe("TASK_FINISHED");
  });

  it("carries out nothing a planner chose while the person took the screen, and asks again once it is handed back", async () => {
    const task = "press the button while I take over";
    const { held, open: release } = gate();
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("click", { x: 200, y: 130 }, "Pressing the button"), until: held },
      act("done", { answer: "Left the button to you." }, "Done"),
    );
    const events = await openStream(app.url, "s-takeover-planned", 0);
    const before = pages.records.filter((r) => r === "clicked").length;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-takeover-planned", text: task, start_url: pages.url("form.html") });
    const task_id = json.task_id;
    await expect.poll(() => model.requests.some((r) => planningText(r).includes(`Task: ${task}`)), { timeout: 15_000 }).toBe(true);
    // The person asks for the screen while the model decides on its click.
    expect((await post("/api/chat/takeover", { task_id })).status).toBe(202);
    release();
    await events.waitFor((e) => e.type === "task.takeover" && e.task_id === task_id);
    expect((await post("/api/chat/resume", { task_id })).status).toBe(202);
    expect(await events.completes(task_id, 30_000)).toMatchObject({ answer: "Left the button to you." });
    events.close();

    expect(pages.records.filter((r) => r === "clicked").length).toBe(before);
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json;
    expect(steps[0]?.text).toBe("Pressing the button (failed: not carried out: the person took over the screen before it)");
    const planned = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
    expect(planningText(planned[1]!)).toContain("The person took over the screen and handed it back");
  });

  it("lets the tool agent ask the person to act (askUser), and goes on from their reply", async () => {
    const goal = "sign in as the person";
    model.route(
      agentOf(goal),
      calls(["askUser", { request: "Please type your name into the Name field, then press I've done it." }]),
      calls(["ariaTree", {}]),
      calls(["close", { reasoning: "Signed in as Grace.", taskComplete: true }]),
    );
    const events = await openStream(app.url, "s-ask-user", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-ask-user", text: goal, start_url: pages.url("form.html") });
    const task_id = json.task_id;
    const asked = await events.waitFor((e) => e.type === "task.awaiting_user" && e.task_id === task_id);
    expect(asked).toMatchObject({ answer: "Please type your name into the Name field, then press I've done it.", show_ack_button: true });
    await post("/api/chat/input", { task_id, input: { kind: "click", x: 250, y: 240 } });
    expect((await post("/api/chat/input", { task_id, input: { kind: "type", text: "Grace" } })).status).toBe(202);
    await pages.waitForRecord("typed:Grace");
    expect((await post("/api/chat/ack-user-action", { task_id })).status).toBe(202);
    expect(await events.completes(task_id, 30_000)).toMatchObject({ answer: "Signed in as Grace." });
    events.close();
    // The model read the person's reply as the call's result, then the page they changed.
    const requests = model.requests.filter(agentOf(goal));
    expect(JSON.stringify(requests[1]!.body.messages)).toContain("I've done it");
    expect(JSON.stringify(requests[2]!.body.messages)).toContain("Grace");
  });

  it("takes the person's input while a planner's task waits for them to act", async () => {
    const task = "ask the person to type their name";
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      act("needs_user", { answer: "Please type your name into the field, then press I've done it." }, "Asking"),
      act("done", { answer: "Thanks." }, "Done"),
    );
    const events = await openStream(app.url, "s-needs-user-input", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-needs-user-input", text: task, start_url: pages.url("form.html") });
    const task_id = json.task_id;
    await events.waitFor((e) => e.type === "task.awaiting_user" && e.task_id === task_id);
    expect((await post("/api/chat/takeover", { task_id })).json.error?.code).toBe("TASK_NOT_RUNNING");
    await post("/api/chat/input", { task_id, input: { kind: "click", x: 250, y: 240 } });
    expect((await post("/api/chat/input", { task_id, input: { kind: "type", text: "Ada" } })).status).toBe(202);
    await pages.waitForRecord("typed:Ada");
    expect((await post("/api/chat/ack-user-action", { task_id })).status).toBe(202);
    expect(await events.completes(task_id, 30_000)).toMatchObject({ answer: "Thanks." });
    events.close();
  });
});
