// The person in the loop: a task that needs the person waits, resumes on "I've done it" and
// completes; Stop interrupts a slow model call without waiting for it and nothing happens
// afterwards; a message sent while a task runs goes to it rather than starting a second one.
import { describe, expect, it } from "vitest";
import type { ChatMessage, TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { kinds, openStream } from "../support/sse.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

const send = (session_id: string, text: string, start_url?: string) =>
  app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id, text, ...(start_url ? { start_url } : {}) });

describe("needs_user", () => {
  it("waits for the person, resumes the same task on ack, and completes", async () => {
    model.route(
      (r) => planningText(r).includes("Task: log in for me"),
      act("needs_user", { answer: "Please log in, then press the button." }, "Waiting for the login"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "Logged in." }, "Done"),
    );
    const { json } = await send("s-user", "log in for me", pages.url("form.html"));
    const events = await openStream(app.url, "s-user", 0);
    const waiting = await events.waitFor((e) => e.type === "task.awaiting_user");
    expect(waiting).toMatchObject({ task_id: json.task_id, answer: "Please log in, then press the button.", show_ack_button: true });
    expect((await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json.task.status).toBe("awaiting_user");
    expect(pages.records).not.toContain("clicked");

    const ack = await app.api("POST", "/api/chat/ack-user-action", { task_id: json.task_id, text: "我已经操作" });
    expect(ack.status).toBe(202);
    const end = await events.waitForEnd(json.task_id);
    events.close();
    expect(end).toMatchObject({ type: "task.completed", answer: "Logged in." });
    await pages.waitForRecord("clicked");
    const types = kinds(events.events);
    expect(types).toEqual(["task.started", "progress.append", "task.awaiting_user", "task.resumed", "progress.append", "progress.append", "task.completed"]);

    const resumed = model.requests.filter((r) => planningText(r).includes("Task: log in for me"))[1]!;
    expect(planningText(resumed)).toContain("The person was asked to act and answered: 我已经操作");
    const messages = (await app.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-user/messages")).json.messages;
    expect(messages.map((m) => `${m.kind}:${m.text}`)).toEqual([
      "user_text:log in for me",
      "assistant_progress:",
      "assistant_answer:Please log in, then press the button.",
      "user_text:我已经操作",
      "assistant_answer:Logged in.",
    ]);
  });

  it("says I've done it in the configured language when the ack comes without words", async () => {
    const zh = await startApp({ modelBaseUrl: model.baseUrl, config: { locale: "zh" } });
    try {
      model.route((r) => planningText(r).includes("Task: sign in, in Chinese"), act("needs_user", { answer: "请登录。" }, "Waiting"), act("done", { answer: "好了。" }, "Done"));
      const { json } = await zh.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-ack-zh", text: "sign in, in Chinese" });
      const events = await openStream(zh.url, "s-ack-zh", 0);
      await events.waitFor((e) => e.type === "task.awaiting_user");
      expect((await zh.api("POST", "/api/chat/ack-user-action", { task_id: json.task_id })).status).toBe(202);
      await events.completes(json.task_id);
      events.close();
      const messages = (await zh.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-ack-zh/messages")).json.messages;
      expect(messages.map((m) => m.text)).toContain("我已经操作");
    } finally {
      await zh.close();
    }
  });

  it("refuses an ack for a task that is not waiting, or has ended", async () => {
    model.route((r) => planningText(r).includes("Task: slow one"), { ...act("done", { answer: "ok" }), delayMs: 1500 });
    const { json } = await send("s-ack", "slow one");
    const early = await app.api<{ error: { code: string } }>("POST", "/api/chat/ack-user-action", { task_id: json.task_id });
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe("TASK_NOT_AWAITING_USER");
    // A message while it runs is for it (a follow-up), not a second task.
    const more = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-ack", text: "another" });
    expect(more.status).toBe(202);
    expect(more.json.task_id).toBe(json.task_id);
    const events = await openStream(app.url, "s-ack", 0);
    await events.waitForEnd(json.task_id);
    events.close();
    const late = await app.api<{ error: { code: string } }>("POST", "/api/chat/ack-user-action", { task_id: json.task_id });
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe("TASK_FINISHED");
    const again = await app.api<{ error: { code: string } }>("POST", "/api/chat/stop", { task_id: json.task_id });
    expect(again.status).toBe(409);
  });
});

describe("stop", () => {
  it("interrupts a slow model call without waiting for its answer, and no action happens after it", async () => {
    model.route(
      (r) => planningText(r).includes("Task: stop me"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      { ...act("type", { text: "too late" }, "Typing"), delayMs: 20_000 },
    );
    const { json } = await send("s-stop", "stop me", pages.url("form.html"));
    const events = await openStream(app.url, "s-stop", 0);
    await events.waitFor((e) => e.type === "progress.append");
    await pages.waitForRecord("clicked");
    // The second planning request is now in flight and will take 20 s.
    await waitUntil(() => model.requests.filter((r) => planningText(r).includes("Task: stop me")).length === 2);

    const stoppedAt = Date.now();
    const stop = await app.api("POST", "/api/chat/stop", { task_id: json.task_id });
    expect(stop.status).toBe(202);
    const end = await events.waitForEnd(json.task_id, 10_000);
    const elapsed = Date.now() - stoppedAt;
    expect(end).toMatchObject({ type: "task.stopped", reason: "stopped by the user" });
    // Well before the model's 20 s: the call was cut, not waited out (how fast is the benchmark's
    // business; an idle machine takes a few milliseconds, a loaded one has taken 1.5 s).
    expect(elapsed).toBeLessThan(10_000);

    await new Promise((r) => setTimeout(r, 500));
    events.close();
    expect(events.events.at(-1)?.type).toBe("task.stopped");
    expect(pages.records.filter((r) => r.startsWith("typed"))).toEqual([]);
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.task.status).toBe("stopped");
    expect(stored.task.finished_at).not.toBeNull();
    expect(stored.steps).toHaveLength(1);

    model.route((r) => planningText(r).includes("Task: after stop"), act("done", { answer: "fine" }));
    const next = await send("s-stop", "after stop");
    expect(next.status).toBe(202);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await new Promise((r) => setTimeout(r, 20));
  }
}
