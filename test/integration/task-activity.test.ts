// Between its steps a task says what it is doing (task.activity): thinking while the model is
// asked, each retry of a failing model request with its number, then the step's own phases
// that lasted; a step ends what was said, and nothing is said after the task ends.
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { backoffMs: 300, httpRetries: 3 } } });

type Activity = Extract<SessionEvent, { type: "task.activity" }>;

describe("what a task is doing between its steps", () => {
  it("says it is thinking, then waiting for the model through each retry of an HTTP 500, in order", async () => {
    const task = "click through a flaky model";
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      // A model that takes its time to fail, as an overloaded one does.
      { status: 500, body: '{"error":"overloaded"}', delayMs: 500 },
      { status: 500, body: '{"error":"overloaded"}' },
      act("click", { x: 180, y: 125 }, "Pressing the button"),
      { ...act("done", { answer: "pressed" }), delayMs: 500 },
    );
    const session = "s-activity-retries";
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
    const stream = await openStream(app.url, session, 0);
    const end = await stream.waitForEnd(json.task_id);
    stream.close();
    expect(end.type).toBe("task.completed");

    const ofTask = stream.events.filter((e) => "task_id" in e && e.task_id === json.task_id);
    const firstStep = ofTask.findIndex((e) => e.type === "progress.append");
    const beforeStep = ofTask.slice(0, firstStep).filter((e): e is Activity => e.type === "task.activity");
    expect(beforeStep.map((e) => [e.activity, e.attempt ?? null, e.of ?? null])).toEqual([
      ["thinking", null, null],
      ["model_retry", 1, 3],
      ["model_retry", 2, 3],
      ...beforeStep.slice(3).map((e) => [e.activity, null, null]),
    ]);
    // The retries are one wait for the model: it is counted from when the model was first asked.
    expect(new Set(beforeStep.slice(0, 3).map((e) => e.since)).size).toBe(1);
    // What follows is the step's own work (acting, waiting for the page…), told only if it lasted.
    expect(beforeStep.slice(3).every((e) => e.activity !== "thinking" && e.activity !== "model_retry")).toBe(true);
    // The second step is planned afresh, and nothing is said once the task has ended.
    expect(ofTask.slice(firstStep).some((e) => e.type === "task.activity" && e.activity === "thinking")).toBe(true);
    expect(ofTask.at(-1)!.type).toBe("task.completed");
  });
});
