// The event reducer and the choice between event-built and stored state.
import { describe, expect, it } from "vitest";
import { events, liveFrame, message, step, task } from "../testing/fixtures.ts";
import { emptyEventState, isAnswering, reduceEvent, selectRun, selectRuns, type EventState } from "./session-state.ts";
import type { SessionEvent } from "../protocol.ts";

const reduce = (list: SessionEvent[], from: EventState = emptyEventState) => list.reduce(reduceEvent, from);

describe("reduceEvent", () => {
  it("builds a run from task.started, live frames and steps", () => {
    const state = reduce(
      events(
        { type: "task.started", task: task() },
        { type: "screen.live", frame: liveFrame(1), url: "http://127.0.0.1:9/form.html", window: null },
        { type: "progress.append", step: step(1) },
        { type: "progress.append", step: step(2) },
        // A step sent again replaces the one with its id, and its tokens are not counted twice.
        { type: "progress.append", step: step(1, { text: "Pressed the button" }) },
      ),
    );
    const run = state.runs.task_1!;
    expect(state.lastEventId).toBe(5);
    expect(run.task.status).toBe("running");
    expect(run.task.live_frame).toEqual(liveFrame(1));
    expect(run.liveUrl).toBe("http://127.0.0.1:9/form.html");
    expect(run.task.current_step_index).toBe(2);
    expect(run.steps.map((s) => s.text)).toEqual(["Pressed the button", "Step 2 text"]);
    expect(run.task.usage).toEqual({ input_tokens: 20, output_tokens: 10 });
  });

  it("knows what the task is doing until a step, keeps it through live frames, and forgets it at the end", () => {
    const since = "2026-01-01T00:00:00.000Z";
    const waiting = reduce(
      events(
        { type: "task.started", task: task() },
        { type: "task.activity", activity: "thinking", since },
        { type: "task.activity", activity: "model_retry", attempt: 2, of: 3, since },
        { type: "screen.live", frame: liveFrame(1), url: null, window: null },
      ),
    );
    expect(waiting.runs.task_1!.activity).toEqual({ activity: "model_retry", attempt: 2, of: 3, since });
    const stepped = reduce(events({ type: "progress.append", step: step(1) }), { ...waiting, lastEventId: 0 });
    expect(stepped.runs.task_1!.activity).toBeNull();
    const again = reduce(events({ type: "task.activity", activity: "thinking", since }, { type: "task.completed", answer: "done" }), { ...waiting, lastEventId: 0 });
    expect(again.runs.task_1!.activity).toBeNull();
  });

  it("knows the person's follow-ups and the step that read each, without ending what the task is doing", () => {
    const since = "2026-01-01T00:00:00.000Z";
    const followUp = message("user_text", "make it blue", "task_1", "msg_f");
    const state = reduce(
      events(
        { type: "task.started", task: task() },
        { type: "task.activity", activity: "thinking", since },
        { type: "task.follow_up", message: followUp },
      ),
    );
    expect(state.followUps).toEqual({ msg_f: null });
    expect(state.runs.task_1!.activity).toMatchObject({ activity: "thinking" });
    const read = reduce(events({ type: "task.follow_up_read", message_id: "msg_f", step: 2 }, { type: "task.follow_up", message: followUp }), { ...state, lastEventId: 0 });
    // Announced again (a replay), it stays read.
    expect(read.followUps).toEqual({ msg_f: 2 });
  });

  it("keeps a task announced queued waiting until task.running", () => {
    const list = events({ type: "task.started", task: task({ status: "queued" }) }, { type: "task.running" });
    expect(reduce(list.slice(0, 1)).runs.task_1!.task.status).toBe("queued");
    expect(reduce(list).runs.task_1!.task.status).toBe("running");
  });

  it("takes the question of a task answered after a restart away while it waits queued, until task.resumed", () => {
    const list = events(
      { type: "task.started", task: task({ status: "awaiting_user", answer: "Please log in." }) },
      { type: "task.queued" },
      { type: "task.resumed" },
    );
    expect(reduce(list.slice(0, 2)).runs.task_1!.task).toMatchObject({ status: "queued", answer: null, approval: null });
    expect(reduce(list).runs.task_1!.task.status).toBe("running");
  });

  it("knows a follow-up to a task still queued, told before the task starts", () => {
    const followUp = message("user_text", "make it blue", "task_1", "msg_f");
    const state = reduce(events({ type: "task.follow_up", message: followUp }, { type: "task.started", task: task() }));
    expect(state.followUps).toEqual({ msg_f: null });
    expect(state.runs.task_1).toBeDefined();
  });

  it("ignores events it has already seen, so a replay after reconnecting changes nothing", () => {
    const list = events({ type: "task.started", task: task() }, { type: "progress.append", step: step(1) });
    const once = reduce(list);
    expect(reduce(list, once)).toBe(once);
  });

  it("goes to the answer and back to running on resume, then completes", () => {
    const waiting = reduce(
      events(
        { type: "task.started", task: task() },
        { type: "progress.append", step: step(1) },
        { type: "task.awaiting_user", answer: "Please log in.", show_ack_button: true },
      ),
    );
    expect(waiting.runs.task_1!.task).toMatchObject({ status: "awaiting_user", answer: "Please log in." });
    const resumed = reduceEvent(waiting, { ...events({ type: "task.resumed" })[0]!, id: 4 });
    expect(resumed.runs.task_1!.task).toMatchObject({ status: "running", answer: null });
    const done = reduceEvent(resumed, { ...events({ type: "task.completed", answer: "Logged in." })[0]!, id: 5 });
    expect(done.runs.task_1!.task).toMatchObject({ status: "completed", answer: "Logged in." });
    expect(done.runs.task_1!.steps).toHaveLength(1);
  });

  it("keeps the reason of a failure and of a stop", () => {
    const failed = reduce(events({ type: "task.started", task: task() }, { type: "task.failed", error: { code: "MODEL_TIMEOUT", message: "The model did not answer." } }));
    expect(failed.runs.task_1!.task.error).toEqual({ code: "MODEL_TIMEOUT", message: "The model did not answer." });
    const stopped = reduce(events({ type: "task.started", task: task() }, { type: "task.stopped", reason: "stopped by the user" }));
    expect(stopped.runs.task_1!).toMatchObject({ task: { status: "stopped" }, stopReason: "stopped by the user" });
  });

  it("forgets the question of a task that ended while it waited: a question is not an answer", () => {
    const started = { type: "task.started", task: task() } as const;
    const asked = { type: "task.awaiting_user", answer: "Please log in.", show_ack_button: true } as const;
    const stopped = reduce(events(started, asked, { type: "task.stopped", reason: "stopped by the user" }));
    expect(stopped.runs.task_1!.task).toMatchObject({ status: "stopped", answer: null });
    const failed = reduce(events(started, asked, { type: "task.failed", error: { code: "INTERRUPTED", message: "interrupted" } }));
    expect(failed.runs.task_1!.task).toMatchObject({ status: "failed", answer: null });
  });

  it("skips events of a task it never saw start, but still advances", () => {
    const state = reduce(events({ type: "task.failed", error: { code: "INTERRUPTED", message: "interrupted" } }));
    expect(state).toEqual({ ...emptyEventState, lastEventId: 1 });
  });
});

describe("the assistant's replies", () => {
  const started = { type: "chat.started", message_id: "msg_r", reply_to: "msg_q" } as const;
  const delta = (text: string) => ({ type: "chat.delta", message_id: "msg_r", reply_to: "msg_q", delta: text }) as const;

  it("grow with each delta and end as the stored message", () => {
    const streaming = reduce(events(started, delta("Paris is "), delta("the capital.")));
    expect(streaming.replies).toEqual([{ id: "msg_r", replyTo: "msg_q", text: "Paris is the capital.", status: "streaming", message: null, error: null, endedAt: null }]);
    expect(isAnswering(streaming)).toBe(true);
    const stored = message("assistant_answer", "Paris is the capital of France.", null, "msg_r");
    const done = reduce(events(started, delta("Paris is "), { type: "chat.completed", message_id: "msg_r", reply_to: "msg_q", message: stored, final: true }));
    expect(done.replies[0]).toMatchObject({ status: "completed", text: "Paris is the capital of France.", message: stored });
    expect(isAnswering(done)).toBe(false);
  });

  it("keep the reason of a failure", () => {
    const error = { code: "MODEL_TIMEOUT", message: "The model did not answer within 90 s." };
    const failed = reduce(events(started, delta("Let me"), { type: "chat.failed", message_id: "msg_r", reply_to: "msg_q", error }));
    expect(failed.replies[0]).toMatchObject({ status: "failed", text: "Let me", error });
    expect(isAnswering(failed)).toBe(false);
    const unstarted = reduce(events({ type: "chat.failed", message_id: "msg_x", reply_to: "msg_q", error }));
    expect(unstarted.replies).toMatchObject([{ id: "msg_x", replyTo: "msg_q", status: "failed", error }]);
  });

  it("stay open across the task a reply starts, until the assistant's last word", () => {
    const first = { type: "chat.completed", message_id: "msg_r", reply_to: "msg_q", message: null, final: false } as const;
    const during = reduce(events(started, first, { type: "task.started", task: task() }, { type: "task.completed", answer: "Done." }));
    expect(isAnswering(during)).toBe(true);
    const last = { type: "chat.completed", message_id: "msg_s", reply_to: "msg_q", message: null, final: true } as const;
    expect(isAnswering(reduceEvent(during, { ...events(last)[0]!, id: 9 }))).toBe(false);
  });
});

describe("selectRun", () => {
  const fromEvents = reduce(events({ type: "task.started", task: task() }, { type: "progress.append", step: step(1) })).runs.task_1!;

  it("shows the stored task while the replayed events are behind it", () => {
    const stored = task({ status: "completed", answer: "Done.", current_step_index: 3 });
    expect(selectRun(fromEvents, stored)).toMatchObject({ task: { status: "completed", answer: "Done." }, steps: fromEvents.steps });
    expect(selectRun(undefined, stored)).toMatchObject({ task: stored, steps: [] });
  });

  it("shows the events once they have caught up with or passed the stored task", () => {
    expect(selectRun(fromEvents, task({ status: "queued", current_step_index: 0 }))).toBe(fromEvents);
    expect(selectRun(fromEvents, task({ status: "running", current_step_index: 1 }))).toBe(fromEvents);
    expect(selectRun(fromEvents, undefined)).toBe(fromEvents);
  });

  it("covers tasks known from either side", () => {
    const runs = selectRuns({ ...emptyEventState, lastEventId: 2, runs: { task_1: fromEvents } }, [task({ id: "task_0", status: "failed" })]);
    expect(Object.keys(runs).sort()).toEqual(["task_0", "task_1"]);
  });
});
