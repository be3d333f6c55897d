// A task's limits (seed 000 §9): a step cap, and a time limit that runs only while the agent
// works — time spent waiting for the person does not count.
import type { Config } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import type { AgentMode } from "../protocol/index.ts";

/** A task's step cap unless it is given one: the tool agent's own cap, within MAX_STEPS for every mode. */
export function defaultStepCap(mode: AgentMode, config: Pick<Config, "agent" | "limits">): number {
  return Math.min(mode === "actions" ? Infinity : config.agent.maxSteps, config.limits.maxSteps);
}

export class Budget {
  private leftMs: number;
  private timer: NodeJS.Timeout | null = null;
  private since = 0;

  constructor(
    private readonly limits: { maxDurationMs: number; maxSteps: number },
    /** Called once the time is up, with the error that ends the task. */
    private readonly expire: (error: AppError) => void,
  ) {
    this.leftMs = limits.maxDurationMs;
  }

  /** Throws STEP_LIMIT when `taken` steps have filled the cap. */
  assertStepRoom(taken: number): void {
    if (taken >= this.limits.maxSteps) throw new AppError("STEP_LIMIT", `The task reached its limit of ${this.limits.maxSteps} steps.`);
  }

  startClock(): void {
    if (this.timer) return;
    this.since = Date.now();
    this.timer = setTimeout(() => {
      this.expire(new AppError("TIME_LIMIT", `The task reached its time limit of ${formatDuration(this.limits.maxDurationMs)}.`));
    }, this.leftMs);
  }

  pauseClock(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.leftMs -= Date.now() - this.since;
  }
}

function formatDuration(ms: number): string {
  return ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} minutes` : `${+(ms / 1000).toFixed(1)} seconds`;
}
