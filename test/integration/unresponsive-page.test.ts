// A page that never gives its main thread back (a script in an endless loop) fails its task soon,
// saying so (issue 31): PAGE_UNRESPONSIVE once a capture of it has had no frame for 15 s, instead
// of trying again and again until the task fails with a vague reason or reaches its time limit.
import { describe, expect, it } from "vitest";
import type { AgentMode, TaskReply } from "../../src/protocol/index.ts";
import { act } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

/** Runs a task on the busy page; its end, and how long it took. */
async function onBusyPage(session: string, mode: AgentMode): Promise<{ end: unknown; took: number; stored: TaskReply["task"] }> {
  const text = `look at a busy page (${mode})`;
  model.route((r) => JSON.stringify(r.body).includes(text), act("done", { answer: "Looked." }, "Done"));
  const events = await openStream(app.url, session, 0);
  const started = Date.now();
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: mode, session_id: session, text, start_url: pages.url("busy.html") });
  const end = await events.waitForEnd(json.task_id, 120_000);
  const took = Date.now() - started;
  events.close();
  return { end, took, stored: (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json.task };
}

describe("a page that stops responding", () => {
  it("fails its task with PAGE_UNRESPONSIVE well before the time limit, with the planner and the tool agent alike", async () => {
    const runs = await Promise.all([onBusyPage("s-busy-actions", "actions"), onBusyPage("s-busy-dom", "dom")]);
    for (const { end, took, stored } of runs) {
      expect(end).toMatchObject({ type: "task.failed", error: { code: "PAGE_UNRESPONSIVE", message: expect.stringContaining("The page stopped responding: it ") } });
      expect(stored.error?.code).toBe("PAGE_UNRESPONSIVE");
      // The bound and the page's load; the time limit is 8 minutes.
      expect(took).toBeLessThan(40_000);
    }
  }, 180_000);
});
