// What a new process makes of the tasks a dead one left active: a running or queued task failed
// as interrupted, one that waits for the person kept as it is, and one the person had answered
// that still waited for its place asked again, its question kept.
import { describe, expect, it } from "vitest";
import type { Approval, ChatMessage, Task } from "../protocol/index.ts";
import { task as taskRecord } from "../../web/src/testing/fixtures.ts";
import { DATABASES, useStores } from "../../test/support/stores.ts";

const AT = "2026-01-01T00:00:00.000Z";
const approval: Approval = { id: "appr_1", checks: [{ id: "c1", code: "high_risk", message: "deletes the account" }], action: null, tool: null, intent: "delete it", url: null, frame: null, at: null, box: null, from_page: false, frame_origin: null };

/** A task of its own session, as the server stores it. */
function task(id: string, patch: Partial<Task>): Task {
  return taskRecord({ id, session_id: `s-${id}`, text: id, start_url: null, ...patch });
}

function message(of: Task): ChatMessage {
  return { id: `msg-${of.id}`, session_id: of.session_id, task_id: of.id, role: "user", kind: "user_text", text: of.text, attachments: [], created_at: AT };
}

describe.each(DATABASES)("recoverInterrupted on %s", (database) => {
  const stores = useStores(database);

  it("fails running and never-started queued tasks, keeps those waiting for the person, and asks again those answered while they waited for a place", async () => {
    const store = await stores.open();
    try {
      const left = [
        task("running", { status: "running" }),
        task("queued", { status: "queued" }),
        task("waiting", { status: "awaiting_user", answer: "Please log in." }),
        task("approved-queued", { status: "queued", approval, answer: "deletes the account" }),
        task("acked-queued", { status: "queued", answer: "Please log in." }),
        // A desktop task is not resumed after a restart, waiting or not.
        task("desktop-queued", { status: "queued", computer: "desktop", answer: "Please log in." }),
      ];
      for (const t of left) await store.createTask(t, message(t), []);

      const failed = await store.recoverInterrupted();
      expect(failed.map((t) => t.id).sort()).toEqual(["desktop-queued", "queued", "running"]);
      const status = async (id: string) => (await store.getTask(id))!;
      expect(await status("running")).toMatchObject({ status: "failed", error: { code: "INTERRUPTED" } });
      expect(await status("queued")).toMatchObject({ status: "failed", error: { code: "INTERRUPTED" } });
      // The question a desktop task waited on is not its answer.
      expect(await status("desktop-queued")).toMatchObject({ status: "failed", error: { code: "INTERRUPTED" }, answer: null });
      expect(await status("waiting")).toMatchObject({ status: "awaiting_user", answer: "Please log in." });
      expect(await status("approved-queued")).toMatchObject({ status: "awaiting_user", approval: { id: "appr_1" } });
      expect(await status("acked-queued")).toMatchObject({ status: "awaiting_user", answer: "Please log in." });
      // Their clients are told the question stands again.
      expect(await store.events.since("s-approved-queued", 0)).toMatchObject([{ type: "approval.requested", task_id: "approved-queued", approval: { id: "appr_1" } }]);
      expect(await store.events.since("s-acked-queued", 0)).toMatchObject([{ type: "task.awaiting_user", task_id: "acked-queued", answer: "Please log in.", show_ack_button: true }]);
      expect(await store.events.since("s-waiting", 0)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
