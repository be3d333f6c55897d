// What a task says it is doing: phases that last, every retry at once, nothing a step superseded.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PhaseClock } from "../core/phase-clock.ts";
import { ActivityReporter, type ActivityEvent } from "./activity.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function reporter() {
  const sent: ActivityEvent[] = [];
  const activity = new ActivityReporter("task_1", (event) => sent.push(event), 150);
  const said = () => sent.map((e) => (e.attempt ? `${e.activity} ${e.attempt}/${e.of}` : e.activity));
  return { activity, sent, said, clock: new PhaseClock((phase) => activity.phase(phase)) };
}

describe("ActivityReporter", () => {
  it("tells a phase once it has lasted, and each retry at once, counted from when the model was asked", async () => {
    const { activity, sent, said, clock } = reporter();
    const planning = clock.time("plan", async () => {
      await vi.advanceTimersByTimeAsync(200);
      activity.retry({ retry: 1, of: 3 });
      activity.retry({ retry: 2, of: 3 });
    });
    await planning;
    expect(said()).toEqual(["thinking", "model_retry 1/3", "model_retry 2/3"]);
    expect(new Set(sent.map((e) => e.since)).size).toBe(1);
  });

  it("says nothing of a burst of short phases, and drops what a step superseded", async () => {
    const { activity, said, clock } = reporter();
    await clock.time("action", async () => vi.advanceTimersByTimeAsync(20));
    await clock.time("settle", async () => vi.advanceTimersByTimeAsync(20));
    await clock.time("effect", async () => vi.advanceTimersByTimeAsync(20));
    activity.stepMade();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(said()).toEqual([]);
    // After a step, the same phase as before is news again; after the end, nothing is.
    await clock.time("plan", async () => vi.advanceTimersByTimeAsync(200));
    activity.stop();
    activity.retry({ retry: 1, of: 3 });
    expect(said()).toEqual(["thinking"]);
  });
});
