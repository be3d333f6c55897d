// Records a task's steps: the screenshot as a frame file, the step, the task's step count and
// tokens, then `progress.append` — the one way any driver adds a step to the timeline.
import { newId, nowIso } from "../core/ids.ts";
import type { Secrets } from "../core/secrets.ts";
import type { FrameOptions } from "../hands/hands.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { FrameRef, ProgressStep } from "../protocol/index.ts";
import type { TaskRecord } from "./task-record.ts";

export type StepFields = Omit<ProgressStep, "id" | "task_id" | "index" | "screenshot" | "created_at">;

export class StepRecorder {
  constructor(
    private readonly record: TaskRecord,
    /** A step's address is stored and shown without a secret's value in it. */
    private readonly secrets: Secrets,
  ) {}

  /** Steps recorded so far. */
  get count(): number {
    return this.record.current.current_step_index;
  }

  /** Stores a capture that belongs to the step being made (a pointer check's). */
  saveFrame(shot: Screenshot, options: FrameOptions): Promise<FrameRef> {
    return this.record.recorder.saveStepFrame(this.record.current, this.count + 1, shot, options);
  }

  async commit(shot: Screenshot, fields: StepFields): Promise<ProgressStep> {
    const { record } = this;
    const task = record.current;
    const index = task.current_step_index + 1;
    // The frame first: a frame the disk refuses (STORAGE_FAILED) ends the task before its step is
    // recorded, rather than leaving a step without its screen. A record with holes could not be
    // checked or replayed, and a disk that refused one file refuses the next; the steps before stay.
    const frame = await record.recorder.saveStepFrame(task, index, shot);
    const step: ProgressStep = { id: newId("step"), task_id: task.id, index, screenshot: frame, created_at: nowIso(), ...fields, url: fields.url === null ? null : this.secrets.conceal(fields.url) };
    await record.recorder.saveStep(step);
    const usage = {
      input_tokens: task.usage.input_tokens + step.usage.input_tokens,
      output_tokens: task.usage.output_tokens + step.usage.output_tokens,
    };
    await record.update({ current_step_index: index, usage });
    await record.emit({ type: "progress.append", task_id: task.id, step });
    return step;
  }
}
