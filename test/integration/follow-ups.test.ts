// Follow-ups (seed 001, issue 16): a message the person sends while a task runs goes to that task,
// not to a new one and not refused. It is stored and announced at once, and the agent reads it
// when it plans its next step — the planner in its task text, the tool agent as a message of the
// person — which is announced with the step. A task that waits for the person takes the message
// as their answer. A run that goes on from the task (Continue) is told them, read or not. What a
// running task cannot take (files, a replay's new instructions) is refused.
import { describe, expect, it } from "vitest";
import type { AgentEventOf, ChatMessage, SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";
import { gate } from "../support/gate.ts";

const { model, pages, app } = useWorld();

type SendJson = { task_id: string; message_id: string; error?: { code: string; message: string } };
const send = (session_id: string, text: string, extra: Record<string, unknown> = {}) => app.api<SendJson>("POST", "/api/chat/send", { mode: "task", session_id, text, ...extra });

/** Resolves once `count` requests match: the model has been asked and is thinking. */
async function asked(match: (r: RecordedRequest) => boolean, count = 1): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (model.requests.filter(match).length < count) {
    if (Date.now() > deadline) throw new Error(`the model was not asked ${count} time(s)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ofType = <T extends SessionEvent["type"]>(events: SessionEvent[], type: T) => events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);

describe("a message to a running task", () => {
  it("reaches the planner at its next step, announced when sent and when read", async () => {
    const step = gate();
    const isTask = (r: RecordedRequest) => planningText(r).includes("Task: pick a colour");
    model.route(isTask, { ...act("click", { x: 200, y: 130 }, "Pressing the button"), until: step.held }, act("done", { answer: "Picked blue." }, "Done"));
    const { json } = await send("s-follow", "pick a colour", { start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-follow", 0);
    await asked(isTask);

    const follow = await send("s-follow", "make it blue");
    expect(follow.status).toBe(202);
    expect(follow.json).toMatchObject({ task_id: json.task_id, message_id: expect.any(String) });
    const told = (await events.waitFor((e) => e.type === "task.follow_up")) as AgentEventOf<"task.follow_up">;
    expect(told.message).toMatchObject({ id: follow.json.message_id, task_id: json.task_id, role: "user", kind: "user_text", text: "make it blue" });
    step.open();

    const end = await events.waitForEnd(json.task_id);
    events.close();
    expect(end).toMatchObject({ type: "task.completed", answer: "Picked blue." });
    expect(ofType(events.events, "task.follow_up_read")).toEqual([expect.objectContaining({ task_id: json.task_id, message_id: follow.json.message_id, step: 2 })]);
    const [first, second] = model.requests.filter(isTask);
    expect(planningText(first!)).not.toContain("make it blue");
    expect(planningText(second!)).toContain("The person added while you worked");
    expect(planningText(second!)).toContain("- make it blue");
    // One task: the message did not start another.
    const { json: stored } = await app.api<{ tasks: { id: string }[] }>("GET", "/api/sessions/s-follow/tasks");
    expect(stored.tasks.map((t) => t.id)).toEqual([json.task_id]);
    const messages = (await app.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-follow/messages")).json.messages;
    expect(messages.filter((m) => m.role === "user").map((m) => [m.text, m.task_id])).toEqual([
      ["pick a colour", json.task_id],
      ["make it blue", json.task_id],
    ]);
  });

  it("still holds when the task goes on with Continue, read or not", async () => {
    const step = gate();
    const isTask = (r: RecordedRequest) => planningText(r).includes("Task: sort the fruit");
    model.route(
      isTask,
      { ...act("click", { x: 200, y: 130 }, "Picking a fruit"), until: step.held },
      { ...act("click", { x: 200, y: 130 }, "Picking another"), until: new Promise(() => {}) },
      act("done", { answer: "Sorted." }, "Done"),
    );
    const { json } = await send("s-follow-continue", "sort the fruit", { start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-follow-continue", 0);
    await asked(isTask);
    await send("s-follow-continue", "only the red ones");
    await events.waitFor((e) => e.type === "task.follow_up");
    step.open();
    await asked(isTask, 2);
    // Sent as the task is stopped: never read by it.
    const unread = await send("s-follow-continue", "and the green ones");
    await events.waitFor((e) => e.type === "task.follow_up" && e.message.id === unread.json.message_id);
    await app.api("POST", "/api/chat/stop", { task_id: json.task_id });
    expect(await events.waitForEnd(json.task_id)).toMatchObject({ type: "task.stopped" });

    const next = await app.api<SendJson>("POST", "/api/chat/continue", { task_id: json.task_id });
    expect(await events.completes(next.json.task_id)).toMatchObject({ answer: "Sorted." });
    events.close();
    const told = planningText(model.requests.filter(isTask)[2]!);
    expect(told).toContain("The person added while you worked");
    expect(told).toContain("- only the red ones\n- and the green ones");
  });

  it("answers the question of a task that waits for the person", async () => {
    const isTask = (r: RecordedRequest) => planningText(r).includes("Task: sign me in");
    model.route(isTask, act("needs_user", { answer: "Please sign in, then tell me." }, "Waiting"), act("done", { answer: "Signed in." }, "Done"));
    const { json } = await send("s-follow-ask", "sign me in", { start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-follow-ask", 0);
    await events.waitFor((e) => e.type === "task.awaiting_user");

    const reply = await send("s-follow-ask", "signed in as Ada");
    expect(reply.status).toBe(202);
    expect(reply.json.task_id).toBe(json.task_id);
    const end = await events.waitForEnd(json.task_id);
    events.close();
    expect(end).toMatchObject({ type: "task.completed", answer: "Signed in." });
    expect(ofType(events.events, "task.follow_up")).toEqual([]);
    expect(planningText(model.requests.filter(isTask)[1]!)).toContain("The person was asked to act and answered: signed in as Ada");
    const messages = (await app.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-follow-ask/messages")).json.messages;
    expect(messages.find((m) => m.id === reply.json.message_id)).toMatchObject({ text: "signed in as Ada", task_id: json.task_id });
  });

  it("reaches the tool agent as the person's message before its next call", async () => {
    const goal = "Read the form";
    const isAgent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
    const calls = (name: string, args: unknown): Reply => ({ chat: { calls: [{ name, arguments: args }] } });
    const step = gate();
    model.route(isAgent, { ...calls("ariaTree", {}), until: step.held }, calls("close", { reasoning: "Read it.", taskComplete: true }));
    const { json } = await send("s-follow-tools", goal, { agent_mode: "dom", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-follow-tools", 0);
    await asked(isAgent);
    expect((await send("s-follow-tools", "only the first field matters")).status).toBe(202);
    await events.waitFor((e) => e.type === "task.follow_up");
    step.open();
    const end = await events.waitForEnd(json.task_id, 45_000);
    events.close();
    expect(end).toMatchObject({ type: "task.completed" });
    expect(ofType(events.events, "task.follow_up_read")).toEqual([expect.objectContaining({ step: 2 })]);
    const second = model.requests.filter(isAgent)[1]!;
    const last = second.body.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(JSON.stringify(last.content)).toContain("- only the first field matters");
  });

  it("reaches the tool agent of the run that goes on with Continue", async () => {
    const goal = "Read the long form";
    const isAgent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
    const calls = (name: string, args: unknown): Reply => ({ chat: { calls: [{ name, arguments: args }] } });
    model.route(isAgent, { ...calls("ariaTree", {}), until: new Promise(() => {}) }, calls("close", { reasoning: "Read it.", taskComplete: true }));
    const { json } = await send("s-follow-tools-continue", goal, { agent_mode: "dom", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-follow-tools-continue", 0);
    await asked(isAgent);
    await send("s-follow-tools-continue", "only the last field matters");
    await events.waitFor((e) => e.type === "task.follow_up");
    await app.api("POST", "/api/chat/stop", { task_id: json.task_id });
    expect(await events.waitForEnd(json.task_id)).toMatchObject({ type: "task.stopped" });

    const next = await app.api<SendJson>("POST", "/api/chat/continue", { task_id: json.task_id });
    await events.completes(next.json.task_id, 45_000);
    events.close();
    const last = model.requests.filter(isAgent)[1]!.body.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(JSON.stringify(last.content)).toContain("- only the last field matters");
  });

  it("refuses files for a running task, and loses nothing", async () => {
    const step = gate();
    const isTask = (r: RecordedRequest) => planningText(r).includes("Task: slow with files");
    model.route(isTask, { ...act("done", { answer: "ok" }), until: step.held });
    const { json } = await send("s-follow-files", "slow with files", { start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-follow-files", 0);
    const file = { name: "notes.txt", mime_type: "text/plain", data_url: "data:text/plain;base64,aGVsbG8=" };
    const refused = await send("s-follow-files", "and this file", { attachments: [file] });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "FOLLOW_UP_REFUSED", message: expect.stringContaining("cannot take files") });
    step.open();
    await events.waitForEnd(json.task_id);
    events.close();
    const messages = (await app.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-follow-files/messages")).json.messages;
    expect(messages.map((m) => m.text)).not.toContain("and this file");
    const { json: task } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(task.task.status).toBe("completed");
  });
});
