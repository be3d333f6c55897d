// Following a task for an MCP client: its events until it ends or waits for the person (each step
// sent on as an MCP progress notification when the client asked for them), and the task as a tool
// result — its status, answer or error, what it waits for, its steps and the files it received.
import type { Approval, SessionEvent, Task } from "../protocol/index.ts";
import type { Store } from "../store/store.ts";

/** Sends one progress notification: `progress` steps made, of `total` when known. */
export type Progress = (progress: number, message: string) => Promise<void>;

const ENDS = new Set<SessionEvent["type"]>(["task.completed", "task.failed", "task.stopped"]);
const WAITS = new Set<SessionEvent["type"]>(["task.awaiting_user", "approval.requested"]);

/**
 * Calls `listener` with each event of the task from now on; resolves with the stop function once
 * it listens, so nothing the task emits after it can be missed.
 */
export async function watchTask(store: Store, task: Pick<Task, "id" | "session_id">, listener: (event: SessionEvent) => void): Promise<() => void> {
  const last = await store.events.lastId(task.session_id);
  return store.events.subscribe(task.session_id, last, (event) => {
    if ("task_id" in event && event.task_id === task.id) listener(event);
  });
}

/**
 * Resolves once the task has ended or waits for the person (an answer or an approval), telling
 * each step it makes meanwhile to `progress`. `signal`: the client gave up on the call.
 */
export async function untilSettled(store: Store, task: Pick<Task, "id" | "session_id">, progress: Progress | null, signal: AbortSignal): Promise<void> {
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const stop = await watchTask(store, task, (event) => {
    if (event.type === "progress.append") void progress?.(event.step.index, event.step.text).catch(() => undefined);
    if (ENDS.has(event.type) || WAITS.has(event.type)) settle();
  });
  try {
    // It may have settled before the watch began.
    const now = await store.getTask(task.id);
    if (!now || settledStatus(now)) return;
    signal.addEventListener("abort", settle, { once: true });
    await settled;
  } finally {
    signal.removeEventListener("abort", settle);
    stop();
  }
}

/**
 * Watches for the task to go on after the person's answer: `goneOn` resolves once it has resumed,
 * waits for them again or ended — so a status asked for next is the task's after the answer.
 */
export async function watchGoingOn(store: Store, task: Pick<Task, "id" | "session_id">): Promise<{ goneOn: Promise<void>; stop(): void }> {
  let going: () => void = () => undefined;
  const goneOn = new Promise<void>((resolve) => (going = resolve));
  const stop = await watchTask(store, task, (event) => {
    if (event.type === "task.resumed" || ENDS.has(event.type) || WAITS.has(event.type)) going();
  });
  return { goneOn, stop };
}

function settledStatus(task: Task): boolean {
  return task.status === "completed" || task.status === "failed" || task.status === "stopped" || task.status === "awaiting_user";
}

/** What the client reads of a task: how it stands, and what to do when it waits for the person. */
export interface TaskResult {
  task_id: string;
  session_id: string;
  status: Task["status"];
  answer: string | null;
  error: { code: string; message: string } | null;
  /** When it waits for the person: what to answer with answer_person. */
  waits_for: { kind: "action"; question: string } | { kind: "approval"; approval_id: string; asks: string[]; intent: string } | null;
  steps: { index: number; text: string; url: string | null }[];
  files: { id: string; name: string; mime_type: string; size: number; path: string | null }[];
}

export async function taskResult(store: Store, taskId: string): Promise<TaskResult | null> {
  const task = await store.getTask(taskId);
  if (!task) return null;
  const [steps, files] = await Promise.all([store.listSteps(taskId), store.received.list(taskId)]);
  const paths = await Promise.all(files.map(async (file) => (await store.received.find(file.id))?.path ?? null));
  return {
    task_id: task.id,
    session_id: task.session_id,
    status: task.status,
    answer: task.status === "completed" ? task.answer : null,
    error: task.error,
    waits_for: waitsFor(task),
    steps: steps.map((step) => ({ index: step.index, text: step.text, url: step.url })),
    files: files.map((file, i) => ({ id: file.id, name: file.name, mime_type: file.mime_type, size: file.size, path: paths[i] ?? null })),
  };
}

/** What the task waits for the person to do, if it waits. */
export function waitsFor(task: Task): TaskResult["waits_for"] {
  if (task.status !== "awaiting_user") return null;
  return task.approval ? approvalAsked(task.approval) : { kind: "action", question: task.answer ?? "" };
}

export function approvalAsked(approval: Approval): Extract<TaskResult["waits_for"], { kind: "approval" }> {
  return { kind: "approval", approval_id: approval.id, asks: approval.checks.map((check) => check.message), intent: approval.intent };
}
