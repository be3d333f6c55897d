// Runs a suite's tasks through the same runtime, hands and policy as the chat: each episode of each
// task is a task of its own session, at most `concurrency` at once. The person's part is played as
// the suite says (or not at all: a task that asks fails as `needs_user`); at its end the task's
// check is judged and its figures read from what the runtime recorded.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Runtime } from "../agent/runtime.ts";
import { toTaskError } from "../core/errors.ts";
import { newId } from "../core/ids.ts";
import type { Attachment, ProgressStep, SessionEvent, Task } from "../protocol/index.ts";
import type { Store } from "../store/store.ts";
import { runCheck, type Judge } from "./checks.ts";
import type { EndLooks } from "./end-state.ts";
import type { Suite, SuiteTask } from "./suite.ts";

/** How a task ended for the report: the runtime's end, or `needs_user` when it asked a person nobody plays. */
export type EpisodeStatus = Task["status"] | "needs_user";

export interface TaskResult {
  id: string;
  episode: number;
  success: boolean;
  status: EpisodeStatus;
  error_code: string | null;
  steps: number;
  seconds: number;
  model_seconds: number;
  harness_seconds: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number | null;
  /** Why the check passed or failed. */
  why: string;
  task_id: string;
  session_id: string;
  /** The time the harness spent on the episode outside the task's own run (its session, its check). */
  overhead_seconds: number;
  /** Each step's time, for the report's slowest steps. */
  step_times: { index: number; text: string; seconds: number; model_seconds: number; longest_phase: string | null }[];
}

export interface EvalHost {
  runtime: Runtime;
  store: Store;
}

export interface RunPlan {
  suite: Suite;
  episodes: number;
  concurrency: number;
  /** Where the suite's `pages` are served, when it has some. */
  pagesBase: string | null;
  looks: EndLooks;
  judge: Judge | null;
  signal: AbortSignal;
  /** Told after each episode, with how many are done of how many. */
  onResult?: (result: TaskResult, done: number, total: number) => void;
}

const MIME: Record<string, string> = { ".txt": "text/plain", ".csv": "text/csv", ".json": "application/json", ".pdf": "application/pdf", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg" };

async function attachmentOf(suite: Suite, file: string): Promise<Attachment> {
  const data = await readFile(path.resolve(suite.dir, file));
  const mime = MIME[path.extname(file).toLowerCase()] ?? "application/octet-stream";
  return { name: path.basename(file), mime_type: mime, data_url: `data:${mime};base64,${data.toString("base64")}` };
}

function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/** Where most of a step's time went: `capture 2.31 s`; null for a step recorded without its timings. */
function longestPhase(step: ProgressStep): string | null {
  const phases = Object.entries(step.timings ?? {}).filter(([name, ms]) => name !== "total" && typeof ms === "number");
  const [name, ms] = phases.sort((a, b) => b[1]! - a[1]!)[0] ?? [];
  return name === undefined || ms === undefined ? null : `${name} ${(ms / 1000).toFixed(2)} s`;
}

/** Runs every episode of every task; results come in the suite's order, episode by episode. */
export async function runSuite(host: EvalHost, plan: RunPlan): Promise<TaskResult[]> {
  const jobs = plan.suite.tasks.flatMap((task) => Array.from({ length: plan.episodes }, (_, i) => ({ task, episode: i + 1 })));
  const results: TaskResult[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length && !plan.signal.aborted) {
      const at = next++;
      const { task, episode } = jobs[at]!;
      results[at] = await runEpisode(host, plan, task, episode);
      plan.onResult?.(results[at], ++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(plan.concurrency, jobs.length) }, worker));
  return results.filter(Boolean);
}

async function runEpisode(host: EvalHost, plan: RunPlan, spec: SuiteTask, episode: number): Promise<TaskResult> {
  const { runtime, store } = host;
  const begun = performance.now();
  const sessionId = newId("eval");
  await store.ensureSession(sessionId, `${plan.suite.name}: ${spec.id} #${episode}`);
  plan.looks.expect(sessionId, spec.check);
  // The person's part: approve, refuse or acknowledge as the suite says, else stop the task as needing a person.
  let asked: string | null = null;
  const { person } = plan.suite;
  let taskId = "";
  const stop = await store.events.subscribe(sessionId, 0, (event: SessionEvent) => {
    if (event.type === "approval.requested") {
      const { approvals } = person;
      if (approvals) void runtime.commands.decide(event.task_id, event.approval.id, approvals === "approve");
      else {
        asked = `it asked to approve: ${event.approval.checks.map((c) => c.message).join(" ")}`;
        void runtime.commands.stop(event.task_id);
      }
    } else if (event.type === "task.awaiting_user") {
      if (person.needs_user === "ack") void runtime.commands.acknowledge(event.task_id);
      else {
        asked = `it asked the person: ${event.answer}`;
        void runtime.commands.stop(event.task_id);
      }
    }
  });
  const attachments = await Promise.all(spec.attachments.map((file) => attachmentOf(plan.suite, file)));
  const startUrl = spec.start_url === undefined ? undefined : plan.pagesBase && !/^[a-z]+:/i.test(spec.start_url) ? new URL(spec.start_url, plan.pagesBase).href : spec.start_url;
  const submitted = performance.now();
  let ended: Task;
  try {
    const { task, done } = await runtime.submit({ sessionId, text: spec.text, attachments, startUrl, agentMode: spec.agent_mode, computer: spec.computer, maxSteps: spec.max_steps });
    taskId = task.id;
    const onAbort = () => void runtime.commands.stop(task.id);
    plan.signal.addEventListener("abort", onAbort, { once: true });
    ended = await done;
    plan.signal.removeEventListener("abort", onAbort);
  } catch (error) {
    // The runtime refused the task (a desktop task with a start_url, a mode the model cannot drive): it failed before it began.
    plan.looks.take(sessionId);
    return refused(spec, episode, sessionId, toTaskError(error), performance.now() - begun);
  } finally {
    stop();
  }
  const wall = performance.now() - submitted;
  const steps = await store.listSteps(taskId);
  const files = (await store.events.since(sessionId, 0)).flatMap((e) => (e.type === "task.file" && !e.refused ? [e.file.name] : []));
  const look = plan.looks.take(sessionId);
  const verdict = await runCheck(spec.check, { ...look, answer: ended.answer, files }, plan.judge, plan.signal);
  const status: EpisodeStatus = asked !== null && ended.status === "stopped" ? "needs_user" : ended.status;
  const planMs = (step: ProgressStep) => step.timings?.plan ?? 0;
  const totalMs = steps.reduce((sum, s) => sum + (s.timings?.total ?? 0), 0);
  const modelMs = steps.reduce((sum, s) => sum + planMs(s), 0);
  const runMs = ended.finished_at ? Date.parse(ended.finished_at) - Date.parse(ended.created_at) : wall;
  return {
    id: spec.id,
    episode,
    success: status === "completed" && verdict.pass,
    status,
    error_code: ended.error?.code ?? null,
    steps: steps.length,
    seconds: seconds(wall),
    model_seconds: seconds(modelMs),
    harness_seconds: seconds(totalMs - modelMs),
    tokens_in: ended.usage.input_tokens,
    tokens_out: ended.usage.output_tokens,
    cost_usd: ended.cost_usd,
    why: status === "completed" ? verdict.why : `the task ended ${status}${status === "needs_user" ? ` (${asked})` : ended.error ? ` (${ended.error.code}: ${ended.error.message})` : ""}; ${verdict.why}`,
    task_id: taskId,
    session_id: sessionId,
    overhead_seconds: seconds(Math.max(0, performance.now() - begun - runMs)),
    step_times: steps.map((s) => ({ index: s.index, text: s.text, seconds: seconds(s.timings?.total ?? 0), model_seconds: seconds(planMs(s)), longest_phase: longestPhase(s) })),
  };
}

function refused(spec: SuiteTask, episode: number, sessionId: string, error: { code: string; message: string }, ms: number): TaskResult {
  return {
    id: spec.id,
    episode,
    success: false,
    status: "failed",
    error_code: error.code,
    steps: 0,
    seconds: 0,
    model_seconds: 0,
    harness_seconds: 0,
    tokens_in: 0,
    tokens_out: 0,
    cost_usd: null,
    why: `the task was refused: ${error.message}`,
    task_id: "",
    session_id: sessionId,
    overhead_seconds: seconds(ms),
    step_times: [],
  };
}
