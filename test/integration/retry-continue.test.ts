// Retry and Continue on an ended task's card (issue 16): a task that ran out of steps goes on from
// where it stopped, its model told the earlier steps, and completes; Retry runs the same text
// again from the start; both are refused for a task that has not ended, and for unknown ids.
import { describe, expect, it } from "vitest";
import type { ChatMessage, SendReply, TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

// MAX_STEPS 2: a task runs out of steps after two, and a continuation may take at most two more.
const { model, pages, app } = useWorld({ config: { limits: { maxSteps: 2 } } });

type Refusal = { error: { code: string; message: string } };
const send = (session_id: string, text: string) =>
  app.api<SendReply>("POST", "/api/chat/send", { mode: "task", session_id, text, start_url: pages.url("form.html") });
const of = (text: string) => model.requests.filter((r) => planningText(r).includes(`Task: ${text}`));

describe("continue", () => {
  it("goes on from a step-limit failure, told the earlier steps, and completes", async () => {
    model.route(
      (r) => planningText(r).includes("Task: fill the long form"),
      act("wait", { ms: 10 }, "Reading the form"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "The form is sent." }, "Done"),
    );
    const first = await send("s-continue", "fill the long form");
    const events = await openStream(app.url, "s-continue", 0);
    expect(await events.waitForEnd(first.json.task_id!)).toMatchObject({ type: "task.failed", error: { code: "STEP_LIMIT" } });
    expect(of("fill the long form")).toHaveLength(2);

    const next = await app.api<SendReply>("POST", "/api/chat/continue", { task_id: first.json.task_id });
    expect(next.status).toBe(202);
    expect(next.json).toMatchObject({ session_id: "s-continue" });
    expect(next.json.task_id).not.toBe(first.json.task_id);
    const started = await events.waitFor((e) => e.type === "task.started" && e.task_id === next.json.task_id);
    expect(started).toMatchObject({ task: { text: "fill the long form", mode: "actions" } });
    expect(await events.completes(next.json.task_id!)).toMatchObject({ answer: "The form is sent." });
    events.close();

    const told = planningText(of("fill the long form")[2]!);
    expect(told).toContain('Step 1: wait 10 ms "Reading the form"');
    expect(told).toContain('Step 2: click (200, 130) "Pressing the button"');
    expect(told).toContain("earlier run of the same task, which failed (STEP_LIMIT");
    const messages = (await app.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-continue/messages")).json.messages;
    expect(messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual(["fill the long form", "Continue"]);
  });

  it("takes extra_steps as the continuation's cap, and refuses more than MAX_STEPS or a completed task", async () => {
    model.route((r) => planningText(r).includes("Task: count sheep"), act("wait", { ms: 10 }), act("wait", { ms: 10 }), act("wait", { ms: 10 }), act("done", { answer: "Asleep." }));
    const first = await send("s-extra", "count sheep");
    const events = await openStream(app.url, "s-extra", 0);
    await events.waitForEnd(first.json.task_id!);

    const tooMany = await app.api<Refusal>("POST", "/api/chat/continue", { task_id: first.json.task_id, extra_steps: 3 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.message).toContain("extra_steps");
    const one = await app.api<SendReply>("POST", "/api/chat/continue", { task_id: first.json.task_id, extra_steps: 1 });
    expect(await events.waitForEnd(one.json.task_id!)).toMatchObject({ type: "task.failed", error: { message: "The task reached its limit of 1 steps." } });
    const last = await app.api<SendReply>("POST", "/api/chat/continue", { task_id: one.json.task_id });
    expect(await events.completes(last.json.task_id!)).toMatchObject({ answer: "Asleep." });
    events.close();

    const done = await app.api<Refusal>("POST", "/api/chat/continue", { task_id: last.json.task_id });
    expect(done.status).toBe(409);
    expect(done.json.error.code).toBe("NOT_CONTINUABLE");
  });
});

describe("retry", () => {
  it("runs the same text again from its start page, as a new task", async () => {
    model.route(
      (r) => planningText(r).includes("Task: flaky job"),
      act("wait", { ms: 10 }),
      act("wait", { ms: 10 }),
      act("done", { answer: "Worked this time." }),
    );
    const first = await send("s-retry", "flaky job");
    const events = await openStream(app.url, "s-retry", 0);
    expect(await events.waitForEnd(first.json.task_id!)).toMatchObject({ type: "task.failed" });

    const again = await app.api<SendReply>("POST", "/api/chat/retry", { task_id: first.json.task_id });
    expect(again.status).toBe(202);
    const started = await events.waitFor((e) => e.type === "task.started" && e.task_id === again.json.task_id);
    expect(started).toMatchObject({ task: { text: "flaky job", start_url: pages.url("form.html") } });
    expect(await events.completes(again.json.task_id!)).toMatchObject({ answer: "Worked this time." });
    events.close();
    // A fresh start: the model is not told of the failed run.
    expect(planningText(of("flaky job").at(-1)!)).not.toContain("earlier run");
    const { task } = (await app.api<TaskReply>("GET", `/api/tasks/${again.json.task_id}`)).json;
    expect(task.status).toBe("completed");
  });

  it("refuses a task that has not ended, unknown tasks and bad bodies", async () => {
    model.route((r) => planningText(r).includes("Task: still going"), { ...act("done", { answer: "ok" }), delayMs: 1500 });
    const running = await send("s-refuse", "still going");
    for (const route of ["/api/chat/retry", "/api/chat/continue"]) {
      const early = await app.api<Refusal>("POST", route, { task_id: running.json.task_id });
      expect(early.status).toBe(409);
      expect(early.json.error.code).toBe("TASK_NOT_ENDED");
      const unknown = await app.api<Refusal>("POST", route, { task_id: "task_nope" });
      expect(unknown.status).toBe(404);
      const bad = await app.api<Refusal>("POST", route, { task: running.json.task_id });
      expect(bad.status).toBe(400);
      expect(bad.json.error.message).toContain("task_id");
    }
    const zero = await app.api<Refusal>("POST", "/api/chat/continue", { task_id: running.json.task_id, extra_steps: 0 });
    expect(zero.status).toBe(400);
    const events = await openStream(app.url, "s-refuse", 0);
    await events.waitForEnd(running.json.task_id!);
    events.close();
  });
});
