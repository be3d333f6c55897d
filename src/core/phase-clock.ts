// Times the phases of a task's steps (capture, plan, action, settle…) for the step record: every
// millisecond counts once, under the innermost phase under way (a tool's run is `action`, less
// the settling and capturing its actions did). The live view, a side channel, is not timed.
// Whoever shows what the task is doing now may watch the innermost phase change (`onPhase`).
import type { StepTimings } from "../protocol/index.ts";

export type Phase = Exclude<keyof StepTimings, "total">;

export class PhaseClock {
  private spent: Partial<Record<Phase, number>> = {};
  private since = performance.now();
  /** The phases under way, innermost last: time goes to the innermost. */
  private readonly open: Phase[] = [];
  /** The innermost phase as last told to `onPhase`. */
  private shown: Phase | null = null;
  private mark = performance.now();

  /** `onPhase`: told the innermost phase under way each time it changes (null: none). */
  constructor(private readonly onPhase?: (phase: Phase | null) => void) {}

  /** Runs `work`, counting its time (less what is timed inside it) under `phase`. */
  async time<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    this.charge();
    this.open.push(phase);
    this.changed(phase);
    try {
      return await work();
    } finally {
      this.charge();
      this.open.splice(this.open.lastIndexOf(phase), 1);
      this.changed(this.open.at(-1) ?? null);
    }
  }

  /** The phases since the last call (or since the clock started), and the whole interval; starts the next one. */
  take(): StepTimings {
    this.charge();
    const timings: StepTimings = { total: tenths(this.mark - this.since) };
    for (const [phase, ms] of Object.entries(this.spent) as [Phase, number][]) timings[phase] = tenths(ms);
    this.spent = {};
    this.since = this.mark;
    return timings;
  }

  private changed(innermost: Phase | null): void {
    if (innermost === this.shown) return;
    this.shown = innermost;
    this.onPhase?.(innermost);
  }

  /** Gives the time since the last mark to the innermost phase under way, if any. */
  private charge(): void {
    const now = performance.now();
    const phase = this.open.at(-1);
    if (phase) this.spent[phase] = (this.spent[phase] ?? 0) + (now - this.mark);
    this.mark = now;
  }
}

function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}
