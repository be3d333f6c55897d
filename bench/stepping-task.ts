// A task that steps without end on form.html, answered by the instant scripted model, for the
// benchmarks that measure what runs while tasks work (screens.ts, concurrency.ts). The caller
// stops it. A watched task's events come over SSE, as a viewer sees them, and its live view runs;
// an unwatched one's are followed inside the server, as the CLI does, and its live view stays off.
import type { TestApp } from "../test/support/app.ts";
import type { FixtureServer } from "../test/support/fixture-server.ts";
import { planningText, type ScriptedModel } from "../test/support/scripted-model.ts";
import { followInProcess, openStream, type EventStream } from "../test/support/sse.ts";
import { stepScript } from "./step-script.ts";

/** More steps than any run takes: the task is stopped, never done (the app's maxSteps must allow it). */
const ENOUGH = 10_000;

export interface SteppingTask {
  taskId: string;
  stream: EventStream;
  /** Steps the task has recorded so far. */
  steps(): number;
  /** Stops the task and waits for its end. */
  stop(): Promise<void>;
}

/** `name` is the task's text and its session's id: letters, digits, `_` and `-`. */
export async function startSteppingTask(app: TestApp, model: ScriptedModel, pages: FixtureServer, name: string, { watched = true } = {}): Promise<SteppingTask> {
  model.route((r) => planningText(r).includes(`Task: ${name}\n`), ...stepScript(ENOUGH));
  await app.system.store.ensureSession(name, "bench");
  const stream = watched ? await openStream(app.url, name, 0) : await followInProcess(app.system.store, name);
  const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: name, text: name, start_url: pages.url("form.html") });
  const taskId = sent.json.task_id;
  const first = await stream.waitFor((e) => e.type === "progress.append" || ("task_id" in e && ["task.failed", "task.stopped", "task.completed"].includes(e.type)), 60_000);
  if (first.type !== "progress.append") throw new Error(`the task ${name} ended before its first step: ${JSON.stringify(first)}`);
  return {
    taskId,
    stream,
    steps: () => stream.events.filter((e) => e.type === "progress.append").length,
    async stop() {
      await app.api("POST", "/api/chat/stop", { task_id: taskId });
      await stream.waitForEnd(taskId, 60_000);
      stream.close();
    },
  };
}
