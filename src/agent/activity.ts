// What a task is doing between its steps, as `task.activity` events: the step's phases as the
// phase clock reports them (plan → thinking, settle → waiting_for_page…), and a model request's
// retries as the HTTP exchange reports them. Sent only when it changes: a phase once it has
// lasted `dwellMs` (so a burst of short ones says nothing, and a few a second at most go out), a
// retry at once; a step supersedes it, so one made drops what had not gone out.
import type { Phase } from "../core/phase-clock.ts";
import { nowIso } from "../core/ids.ts";
import type { RetryNotice } from "../models/retry-watch.ts";
import type { AgentEventOf, TaskActivity } from "../protocol/index.ts";

export type ActivityEvent = AgentEventOf<"task.activity">;

/** The phases a person is told about; the others (capture, encode, persistence…) leave what shows. */
const SHOWN: Partial<Record<Phase, TaskActivity>> = {
  plan: "thinking",
  action: "acting",
  verification: "checking_pointer",
  settle: "waiting_for_page",
  effect: "verifying",
};

export class ActivityReporter {
  private current: ActivityEvent | null = null;
  /** What went out last, as `key` names it; null once a step superseded it. */
  private sent: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly taskId: string,
    private readonly send: (event: ActivityEvent) => void,
    /** How long a phase must last to be told: a click's few milliseconds are not worth a word. */
    private readonly dwellMs = 150,
  ) {}

  /** The phase clock's innermost phase changed. */
  phase(phase: Phase | null): void {
    const activity = phase ? SHOWN[phase] : undefined;
    if (!activity || this.current?.activity === activity) return;
    this.set({ type: "task.activity", task_id: this.taskId, activity, since: nowIso() }, this.dwellMs);
  }

  /** A model request is about to be retried: the wait for the model goes on, counted from when it began. */
  retry({ retry, of }: RetryNotice): void {
    // Retries are few and each is news: one goes out at once.
    this.set({ type: "task.activity", task_id: this.taskId, activity: "model_retry", attempt: retry, of, since: this.current?.since ?? nowIso() }, 0);
  }

  /** A step was made: it replaces whatever showed, and what was waiting to go out is dropped. */
  stepMade(): void {
    this.cancel();
    this.current = null;
    this.sent = null;
  }

  /** The task is ending: nothing more goes out. */
  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private set(next: ActivityEvent, afterMs: number): void {
    if (this.stopped) return;
    this.current = next;
    this.cancel();
    if (afterMs <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), afterMs);
  }

  private flush(): void {
    this.timer = null;
    const { current } = this;
    if (this.stopped || !current || key(current) === this.sent) return;
    this.sent = key(current);
    this.send(current);
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

function key(event: ActivityEvent): string {
  return `${event.activity}:${event.attempt ?? ""}`;
}
