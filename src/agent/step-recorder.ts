// Records a task's steps: the screenshot as a frame file, the step, the task's step count and
// tokens, then `progress.append` — the one way any driver adds a step to the timeline. A step is
// stored behind the loop, in the task's queue of writes: the driver goes on with the step as it
// will be stored, and the run waits for every step before it ends (`flush`).
import { cutNoted } from "../core/cut-text.ts";
import { newId, nowIso } from "../core/ids.ts";
import type { PhaseClock } from "../core/phase-clock.ts";
import type { Secrets } from "../core/secrets.ts";
import type { FrameOptions } from "../hands/hands.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { costUsd, type Price } from "../models/prices.ts";
import { addCosts, type FrameRef, type ProgressStep } from "../protocol/index.ts";
import type { TaskRecord } from "./task-record.ts";

/**
 * The most of a model's reasoning a step keeps, and of the line the person reads for it: enough to
 * follow either, while a model that writes megabytes in one answer costs the disk kilobytes.
 */
const THOUGHT_CHARS = 8_000;
export const TEXT_CHARS = 1_000;

/** A step as a driver makes it; only a planner's says what it carried out. */
export type StepFields = Omit<ProgressStep, "id" | "task_id" | "index" | "screenshot" | "created_at" | "cost_usd" | "carried_out"> & Partial<Pick<ProgressStep, "carried_out">>;

export class StepRecorder {
  private made: number;
  /** Why a step could not be stored: the run ends with it. */
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly record: TaskRecord,
    /** A step's address is stored and shown without a secret's value in it. */
    private readonly secrets: Secrets,
    /** Times the step's phases; storing and sending a step run behind the loop, untimed. */
    private readonly clock: PhaseClock,
    /** The price table in force (models/prices.ts): each step's tokens are priced as it is made. */
    private readonly prices: readonly Price[],
    /** Told as each step is made, with its screenshot, before it is stored (what the task was doing is over). */
    private readonly onStep?: (shot: Screenshot) => void,
  ) {
    this.made = record.current.current_step_index;
  }

  /** Steps made so far (the last ones may still be on their way to the store). */
  get count(): number {
    return this.made;
  }

  /** Stores a capture that belongs to the step being made (a pointer check's). */
  saveFrame(shot: Screenshot, options: FrameOptions): Promise<FrameRef> {
    return this.clock.time("persistence", async () => {
      const frame = this.record.recorder.stepFrame(this.record.current, this.count + 1, shot, options);
      await frame.save();
      return frame.ref;
    });
  }

  /**
   * Makes the step and queues its storing. The frame first: a frame the disk refuses
   * (STORAGE_FAILED) ends the task before its step is recorded, rather than leaving a step without
   * its screen. A record with holes could not be checked or replayed, and a disk that refused one
   * file refuses the next; the steps before stay. The failure ends the run at its next step, or
   * when it flushes.
   */
  async commit(shot: Screenshot, fields: StepFields): Promise<ProgressStep> {
    this.throwIfFailed();
    const { record, clock } = this;
    const timings = clock.take();
    const task = record.current;
    const index = ++this.made;
    this.onStep?.(shot);
    const frame = record.recorder.stepFrame(task, index, shot);
    const step: ProgressStep = {
      id: newId("step"),
      task_id: task.id,
      index,
      screenshot: frame.ref,
      created_at: nowIso(),
      ...fields,
      carried_out: fields.carried_out ?? null,
      text: cutNoted(fields.text, TEXT_CHARS),
      thought: cutNoted(fields.thought, THOUGHT_CHARS),
      url: fields.url === null ? null : this.secrets.conceal(fields.url),
      cost_usd: costUsd(fields.planner, fields.usage, this.prices),
      timings,
    };
    const store = async () => {
      if (this.failure) return;
      await frame.save();
      await record.recorder.saveStep(step);
      const { usage, cost_usd } = record.current;
      record.change({
        current_step_index: index,
        usage: { input_tokens: usage.input_tokens + step.usage.input_tokens, output_tokens: usage.output_tokens + step.usage.output_tokens },
        cost_usd: addCosts(cost_usd, step.cost_usd),
      });
      await record.saveTask();
      await record.recorder.emit(task.session_id, { type: "progress.append", task_id: task.id, step });
    };
    record.queue(store).catch((error: unknown) => (this.failure ??= { error }));
    return step;
  }

  /** Why a step could not be stored, as far as the writes have run; null while every one was. */
  get lost(): unknown {
    return this.failure?.error ?? null;
  }

  /** Resolves once every step made is stored and sent; throws why one could not be. */
  async flush(): Promise<void> {
    await this.clock.time("persistence", () => this.record.queue(async () => undefined));
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
