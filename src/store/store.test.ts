// The store's queries where SQLite and Postgres speak differently, on both: rows read back in the
// order they were written (not by their ids), the chats listed by their latest activity with their
// latest task's status, JSON fields matched inside events, and a dead process's half-written
// answer closed, and a chat's sign-ins kept only by the worker that holds its task and only while
// the chat exists — each the same on the embedded file and on a Postgres server.
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { ChatMessage, Task } from "../protocol/index.ts";
import { task as taskRecord } from "../../web/src/testing/fixtures.ts";
import { DATABASES, useStores } from "../../test/support/stores.ts";
import { LeasedRecorder, takeLease } from "./task-leases.ts";

const AT = "2026-01-01T00:00:00.000Z";

function message(id: string, session_id: string, patch: Partial<ChatMessage> = {}): ChatMessage {
  return { id, session_id, task_id: null, role: "user", kind: "user_text", text: id, attachments: [], created_at: AT, ...patch };
}

function task(id: string, session_id: string, patch: Partial<Task> = {}): Task {
  return taskRecord({ id, session_id, text: id, start_url: null, created_at: AT, updated_at: AT, ...patch });
}

describe.each(DATABASES)("the store on %s", (database) => {
  const stores = useStores(database);

  it("reads a chat's messages and a task's files in the order they were written, whatever their ids and times", async () => {
    const store = await stores.open();
    try {
      await store.ensureSession("s-order", "order");
      for (const id of ["msg_c", "msg_a", "msg_b"]) await store.addMessage(message(id, "s-order"));
      expect((await store.listMessages("s-order")).map((m) => m.id)).toEqual(["msg_c", "msg_a", "msg_b"]);

      const asked = task("task_files", "s-order");
      await store.createTask(asked, message("msg_ask", "s-order", { task_id: asked.id }), []);
      for (const id of ["file_z", "file_y"]) {
        await store.saveReceivedFile(asked, { id, name: `${id}.pdf`, mime_type: "application/pdf", size: 3, step: 0, path: store.receivedFilePath(asked, id, `${id}.pdf`), refused: null });
      }
      expect((await store.received.list(asked.id)).map((f) => f.id)).toEqual(["file_z", "file_y"]);
    } finally {
      await store.close();
    }
  });

  it("lists the chats by their latest activity, each with the status of the task it started last", async () => {
    const store = await stores.open();
    try {
      await store.ensureSession("s-quiet", "quiet");
      await store.ensureSession("s-busy", "busy");
      await store.db.updateTable("sessions").set({ updated_at: "2026-01-01T00:00:00.000Z" }).execute();
      // Two tasks begun in the same millisecond: the one written last is the latest.
      await store.createTask(task("task_2", "s-busy", { status: "completed" }), message("msg_2", "s-busy", { task_id: "task_2" }), []);
      await store.createTask(task("task_1", "s-busy", { status: "running", updated_at: "2026-01-02T00:00:00.000Z" }), message("msg_1", "s-busy", { task_id: "task_1" }), []);
      const sessions = await store.listSessions();
      expect(sessions.map((s) => [s.id, s.task_status])).toEqual([
        ["s-busy", "running"],
        ["s-quiet", null],
      ]);
      expect(sessions[0]!.last_activity_at).toBe("2026-01-02T00:00:00.000Z");
    } finally {
      await store.close();
    }
  });

  it("drops an answer's streamed pieces once it is whole, and closes an answer a dead process left open", async () => {
    const store = await stores.open();
    try {
      await store.ensureSession("s-chat", "chat");
      await store.emit("s-chat", { type: "chat.started", message_id: "msg_done", reply_to: "msg_q1" });
      await store.emit("s-chat", { type: "chat.delta", message_id: "msg_done", reply_to: "msg_q1", delta: "Hel" });
      await store.emit("s-chat", { type: "chat.delta", message_id: "msg_done", reply_to: "msg_q1", delta: "lo" });
      await store.emit("s-chat", { type: "chat.completed", message_id: "msg_done", reply_to: "msg_q1", final: true, message: message("msg_done", "s-chat", { role: "assistant", kind: "assistant_answer", text: "Hello" }) });
      await store.emit("s-chat", { type: "chat.started", message_id: "msg_cut", reply_to: "msg_q2" });
      await store.emit("s-chat", { type: "chat.delta", message_id: "msg_cut", reply_to: "msg_q2", delta: "Half" });
      expect(await store.deleteRefusal("s-chat")).toContain("still answering");

      await store.recoverInterrupted();
      const events = await store.events.since("s-chat", 0);
      expect(events.map((e) => e.type)).toEqual(["chat.started", "chat.completed", "chat.started", "chat.delta", "chat.failed"]);
      expect(events.at(-1)).toMatchObject({ type: "chat.failed", message_id: "msg_cut", error: { code: "INTERRUPTED" } });
      expect(await store.deleteRefusal("s-chat")).toBeNull();
    } finally {
      await store.close();
    }
  });

  it("keeps a chat's sign-ins from the worker that holds its task, never from one that lost it", async () => {
    const store = await stores.open();
    const log = pino({ enabled: false });
    try {
      await store.ensureSession("s-signed", "signed");
      await store.createTask(task("task_signed", "s-signed"), message("msg_signed", "s-signed", { task_id: "task_signed" }), []);
      const frozen = new LeasedRecorder(store, await takeLease(store.db, "task_signed", "worker-a"), log);
      await frozen.keepSignIns("s-signed", "[\"ada, first\"]");
      const successor = new LeasedRecorder(store, await takeLease(store.db, "task_signed", "worker-b"), log);
      await successor.keepSignIns("s-signed", "[\"ada, fresh\"]");
      // The first worker wakes and keeps what its browser held: the successor's sign-ins stay.
      await frozen.keepSignIns("s-signed", "[\"ada, first\"]");
      expect(await store.readSignIns("s-signed")).toBe("[\"ada, fresh\"]");
    } finally {
      await store.close();
    }
  });

  it("deletes a chat's sign-ins with the chat, and keeps none a browser of it gives back afterwards", async () => {
    const store = await stores.open();
    try {
      await store.ensureSession("s-gone", "gone");
      await store.keepSignIns("s-gone", "[\"ada\"]");
      expect(await store.readSignIns("s-gone")).toBe("[\"ada\"]");
      await store.deleteSession("s-gone");
      expect(await store.readSignIns("s-gone")).toBeNull();
      // A browser of the chat that closes after the chat was deleted (its task stopped as it opened).
      await store.keepSignIns("s-gone", "[\"ada, late\"]");
      expect(await store.readSignIns("s-gone")).toBeNull();
    } finally {
      await store.close();
    }
  });
});
