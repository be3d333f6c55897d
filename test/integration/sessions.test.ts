// The chat list as a person sees it in the sidebar: each chat's title, where its latest task
// stands and when it last moved; renaming a chat; deleting one with everything recorded for it,
// which a task under way refuses.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Session, TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();
type ErrorJson = { error: { code: string; message: string } };

async function listed(id: string): Promise<Session | undefined> {
  return (await app.api<{ sessions: Session[] }>("GET", "/api/sessions")).json.sessions.find((s) => s.id === id);
}

async function runTask(session: string, text: string, ...replies: Parameters<typeof model.script>) {
  model.route((r) => planningText(r).includes(`Task: ${text}`), ...replies);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text, start_url: pages.url("form.html") });
  return json.task_id;
}

describe("the sessions list", () => {
  it("gives each chat a title from its first message, its latest task's status and its last activity", async () => {
    const before = new Date().toISOString();
    let resolve = () => {};
    const release = { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
    const text = "Please can you press the button on the form. Then tell me what happened.";
    const taskId = await runTask("s-list", text, { ...act("click", { x: 200, y: 130 }, "Pressing the button"), until: release.promise }, act("done", { answer: "Pressed." }, "Finished"));
    const events = await openStream(app.url, "s-list", 0);
    await events.waitFor((e) => e.type === "task.started");

    expect(await listed("s-list")).toMatchObject({ title: "press the button on the form", task_status: "running", status: "running" });
    const busy = await app.api<ErrorJson>("DELETE", "/api/sessions/s-list");
    expect(busy.status).toBe(409);
    expect(busy.json.error).toMatchObject({ code: "SESSION_BUSY", message: expect.stringContaining("stop it first") });

    release.resolve();
    await events.waitForEnd(taskId);
    events.close();
    const done = (await listed("s-list"))!;
    expect(done).toMatchObject({ task_status: "completed", status: "done" });
    expect(done.last_activity_at >= before).toBe(true);

    const waiting = await runTask("s-wait", "wait for me", act("needs_user", { answer: "Sign in, then tell me." }, "Waiting"));
    const waitEvents = await openStream(app.url, "s-wait", 0);
    await waitEvents.waitFor((e) => e.type === "task.awaiting_user");
    waitEvents.close();
    expect(await listed("s-wait")).toMatchObject({ title: "wait for me", task_status: "awaiting_user", status: "needs_you" });
    // Waiting for the person is still under way: the chat is not deleted from under them.
    expect((await app.api<ErrorJson>("DELETE", "/api/sessions/s-wait")).json.error.code).toBe("SESSION_BUSY");
    await app.api("POST", "/api/chat/stop", { task_id: waiting });
    await expect.poll(async () => (await listed("s-wait"))?.status).toBe("stopped");
    // Its question is not its answer.
    expect((await app.api<TaskReply>("GET", `/api/tasks/${waiting}`)).json.task).toMatchObject({ status: "stopped", answer: null });

    // The most recently active chat comes first; a chat without a task has no status.
    const fresh = (await app.api<Session>("POST", "/api/sessions", {})).json;
    expect(fresh).toMatchObject({ title: "New chat", task_status: null, status: null });
    const ids = (await app.api<{ sessions: Session[] }>("GET", "/api/sessions")).json.sessions.map((s) => s.id);
    expect(ids.indexOf(fresh.id)).toBeLessThan(ids.indexOf("s-wait"));
    expect(ids.indexOf("s-wait")).toBeLessThan(ids.indexOf("s-list"));
  });
});

describe("renaming a chat", () => {
  it("keeps the person's title, even when the first message comes after it", async () => {
    const { json: created } = await app.api<Session>("POST", "/api/sessions", {});
    const renamed = await app.api<Session>("PATCH", `/api/sessions/${created.id}`, { title: "  Groceries  " });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: created.id, title: "Groceries" });
    await app.api("POST", "/api/chat/send", { mode: "task", session_id: created.id, text: "New chat", start_url: pages.url("form.html") });
    expect((await listed(created.id))?.title).toBe("Groceries");
  });

  it.each([
    ["an empty title", { title: "   " }, "title: must not be empty"],
    ["a title of 121 characters", { title: "x".repeat(121) }, "title: must be at most 120 characters"],
    ["no title", {}, "title:"],
    ["a title that is not text", { title: 7 }, "title:"],
  ])("refuses %s with 400 naming the field", async (_, body, message) => {
    const { json: created } = await app.api<Session>("POST", "/api/sessions", {});
    const reply = await app.api<ErrorJson>("PATCH", `/api/sessions/${created.id}`, body);
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({ code: "INVALID_BODY", message: expect.stringContaining(message) });
  });

  it.each([
    ["PATCH", { title: "Anything" }],
    ["DELETE", undefined],
  ] as const)("%s of an unknown chat → 404, and without the install token → 403", async (method, body) => {
    const unknown = await app.api<ErrorJson>(method, "/api/sessions/nobody", body);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe("NOT_FOUND");
    const { json: created } = await app.api<Session>("POST", "/api/sessions", {});
    const anonymous = await app.api<ErrorJson>(method, `/api/sessions/${created.id}`, body, { "x-easyagentcu-token": "" });
    expect(anonymous.status).toBe(403);
    expect(await listed(created.id)).toMatchObject({ title: "New chat" });
  });
});

describe("deleting a chat", () => {
  it("removes its messages, tasks, steps, events, frames and files", async () => {
    const { json: other } = await app.api<Session>("POST", "/api/sessions", { title: "Keep me" });
    const taskId = await runTask("s-delete", "press and finish", act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Done." }, "Finished"));
    const events = await openStream(app.url, "s-delete", 0);
    await events.waitForEnd(taskId);
    events.close();
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    const frame = stored.steps[0]!.screenshot!;
    const folder = path.join(app.dataDir, "sessions", "s-delete");
    expect(existsSync(folder)).toBe(true);

    const reply = await app.api("DELETE", "/api/sessions/s-delete");
    expect(reply.status).toBe(204);

    expect(await listed("s-delete")).toBeUndefined();
    for (const route of ["/api/sessions/s-delete/messages", "/api/sessions/s-delete/tasks", `/api/tasks/${taskId}`, frame.url]) {
      expect((await app.api("GET", route)).status, route).toBe(404);
    }
    expect(existsSync(folder)).toBe(false);
    const db = app.system.store.db;
    const count = async (table: "messages" | "tasks" | "events", column: "session_id") =>
      (await db.selectFrom(table).select(db.fn.countAll<number>().as("n")).where(column, "=", "s-delete").executeTakeFirstOrThrow()).n;
    expect([await count("messages", "session_id"), await count("tasks", "session_id"), await count("events", "session_id")]).toEqual([0, 0, 0]);
    const orphans = await db.selectFrom("steps").select("id").where("task_id", "=", taskId).execute();
    const frames = await db.selectFrom("frames").select("id").where("task_id", "=", taskId).execute();
    expect([orphans, frames]).toEqual([[], []]);
    // Other chats are untouched.
    expect(await listed(other.id)).toBeDefined();
  });
});
