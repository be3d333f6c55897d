// A task sent as the person would, its approval requests answered in order: the story most
// approval tests tell.
import { expect } from "vitest";
import type { Approval, SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import type { TestApp } from "./app.ts";
import { openStream } from "./sse.ts";

/** Sends a task and answers its approval requests in order; resolves with how it ended, what was asked and the stored task. */
export async function runDeciding(app: TestApp, session: string, body: Record<string, unknown>, decisions: boolean[] = []) {
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, ...body });
  const asked = (n: number) => events.events.filter((e) => e.type === "approval.requested")[n] as Extract<SessionEvent, { type: "approval.requested" }>;
  for (const [n, approved] of decisions.entries()) {
    await events.waitFor(() => asked(n) !== undefined);
    expect((await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked(n).approval.id, approved })).status).toBe(202);
  }
  const end = await events.waitForEnd(json.task_id, 45_000);
  events.close();
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  const approvals = events.events.filter((e) => e.type === "approval.requested").map((e) => (e as { approval: Approval }).approval);
  return { end, stored, approvals, events: events.events };
}
