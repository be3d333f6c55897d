// The run's report as data (DIR/report.json): one row per episode, the summary a comparison reads,
// and the slowest steps. Every figure comes from the episodes' results; none is measured here.
import type { TaskResult } from "./runner.ts";

export type ReportRow = Omit<TaskResult, "step_times" | "session_id"> & {
  /** The task's chat in the UI (`easyagentcu serve --data-dir DIR/data`). */
  run_url: string;
};

export interface Summary {
  episodes: number;
  /** Successes over episodes, 0 to 1. */
  success_rate: number;
  mean_steps: number;
  median_seconds: number;
  /** Null when no episode's model has a price (models/prices.ts). */
  total_cost_usd: number | null;
  median_step_seconds: number;
  /** The harness's own time per episode, outside the task's run. */
  median_overhead_seconds: number;
  tokens_in: number;
  tokens_out: number;
}

export interface SlowStep {
  id: string;
  episode: number;
  index: number;
  text: string;
  seconds: number;
  model_seconds: number;
  /** The phase that took the most of it (ProgressStep.timings), e.g. `capture 2.31 s`. */
  longest_phase: string | null;
  run_url: string;
}

export interface Report {
  suite: string;
  model: string;
  started_at: string;
  tasks: ReportRow[];
  summary: Summary;
  slowest_steps: SlowStep[];
}

const SLOWEST = 10;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export function summarize(rows: readonly Pick<ReportRow, "success" | "steps" | "seconds" | "cost_usd" | "overhead_seconds" | "tokens_in" | "tokens_out">[], stepSeconds: readonly number[]): Summary {
  const n = rows.length;
  const priced = rows.filter((r) => r.cost_usd !== null);
  return {
    episodes: n,
    success_rate: n === 0 ? 0 : round(rows.filter((r) => r.success).length / n, 4),
    mean_steps: n === 0 ? 0 : round(rows.reduce((sum, r) => sum + r.steps, 0) / n, 2),
    median_seconds: round(median(rows.map((r) => r.seconds))),
    total_cost_usd: priced.length === 0 ? null : round(priced.reduce((sum, r) => sum + r.cost_usd!, 0), 6),
    median_step_seconds: round(median(stepSeconds)),
    median_overhead_seconds: round(median(rows.map((r) => r.overhead_seconds))),
    tokens_in: rows.reduce((sum, r) => sum + r.tokens_in, 0),
    tokens_out: rows.reduce((sum, r) => sum + r.tokens_out, 0),
  };
}

/** `ui`: the address the UI is served at for the run's data dir; each row links to its chat there. */
export function buildReport(suite: string, model: string, startedAt: string, results: readonly TaskResult[], ui: string): Report {
  const link = (r: TaskResult) => `${ui.replace(/\/$/, "")}/s/${r.session_id}`;
  const tasks = results.map(({ step_times: _steps, session_id: _session, ...row }, i) => ({ ...row, run_url: link(results[i]!) }));
  const steps = results.flatMap((r) => r.step_times.map((s) => ({ id: r.id, episode: r.episode, ...s, run_url: link(r) })));
  return {
    suite,
    model,
    started_at: startedAt,
    tasks,
    summary: summarize(tasks, steps.map((s) => s.seconds)),
    slowest_steps: [...steps].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST),
  };
}
