// Owns how a session's runs and the assistant's replies are known: SessionEvents reduce into one
// RunState per task and one ReplyState per reply, and for each task the view takes the
// event-built state or the store's snapshot, whichever is further along, so a reload shows the
// stored state at once and the replayed events never step back.
import { addCosts, type ChatMessage, type FrameRef, type ProgressStep, type SessionEvent, type Task, type TaskActivity, type TaskError, type TaskFile, type TaskStatus } from "../protocol.ts";

/** What the task is doing between its steps (task.activity); `since` is the server's time the wait began. */
export interface RunActivity {
  activity: TaskActivity;
  attempt?: number | undefined;
  of?: number | undefined;
  since: string;
}

export interface RunState {
  task: Task;
  steps: ProgressStep[];
  /** The page URL that goes with the live frame. */
  liveUrl: string | null;
  /** On a desktop: the focused window of the latest live frame. */
  liveWindow: string | null;
  /** Why the task was stopped; only task.stopped says it. */
  stopReason: string | null;
  /**
   * The first live frame this view saw, before any step: the screen the first step acted on.
   * Absent after a reload, since the stream keeps only a task's latest live frame.
   */
  first?: { frame: FrameRef; url: string | null };
  /** Until the next step, a question to the person or the task's end; absent when none was said. */
  activity?: RunActivity | null;
  /** The files the task received and kept (task.file), in the order they came; absent before the first. */
  files?: TaskFile[];
}

/** The person's follow-ups, by message id: the step whose request read it, null until then. */
export type FollowUps = Readonly<Record<string, number | null>>;

/** One answer of the chat assistant, as it streams. */
export interface ReplyState {
  id: string;
  /** The person's message it answers. */
  replyTo: string;
  text: string;
  status: "streaming" | "completed" | "failed";
  /** The stored message once completed; null when the assistant had nothing to add. */
  message: ChatMessage | null;
  error: TaskError | null;
  /** When it ended (the server's clock). */
  endedAt: string | null;
}

export interface EventState {
  /** The id of the last event reduced; the stream resumes after it. */
  lastEventId: number;
  runs: Record<string, RunState>;
  /** In the order they started. */
  replies: ReplyState[];
  /** The person's messages the assistant has not said its last word on (a task may be between its replies). */
  openTurns: string[];
  /** Kept apart from the runs: a task still queued is told before it starts. */
  followUps: FollowUps;
}

export const emptyEventState: EventState = { lastEventId: 0, runs: {}, replies: [], openTurns: [], followUps: {} };

export function reduceEvent(state: EventState, event: SessionEvent): EventState {
  if (event.id <= state.lastEventId) return state;
  const next: EventState = { ...state, lastEventId: event.id };
  if (!("task_id" in event)) return { ...next, replies: applyToReplies(state.replies, event), openTurns: applyToTurns(state.openTurns, event) };
  if (event.type === "task.follow_up") return { ...next, followUps: { [event.message.id]: null, ...state.followUps } };
  if (event.type === "task.follow_up_read") return { ...next, followUps: { ...state.followUps, [event.message_id]: event.step } };
  if (event.type === "task.started") {
    return { ...next, runs: { ...state.runs, [event.task_id]: { task: event.task, steps: [], liveUrl: null, liveWindow: null, stopReason: null } } };
  }
  const run = state.runs[event.task_id];
  if (!run) return next;
  return { ...next, runs: { ...state.runs, [event.task_id]: applyToRun(endsActivity(event) ? { ...run, activity: null } : run, event) } };
}

/** Events that leave what a task is doing as it was: the screen's own news and the person's follow-ups. */
const KEEPS_ACTIVITY: ReadonlySet<string> = new Set(["task.activity", "screen.live", "snapshotSync", "task.file"]);

/** What a task was doing is over once anything else comes: a step, a question, its end. */
function endsActivity(event: SessionEvent): boolean {
  return !KEEPS_ACTIVITY.has(event.type);
}

type TaskSessionEvent = Extract<SessionEvent, { task_id: string }>;
type ChatSessionEvent = Exclude<SessionEvent, TaskSessionEvent>;

function applyToRun(run: RunState, event: Exclude<TaskSessionEvent, { type: "task.started" | "task.follow_up" | "task.follow_up_read" }>): RunState {
  const task = (patch: Partial<Task>): Task => ({ ...run.task, ...patch, updated_at: event.at });
  switch (event.type) {
    case "screen.live": {
      const first = run.first ?? (run.steps.length === 0 ? { frame: event.frame, url: event.url } : undefined);
      return { ...run, task: task({ live_frame: event.frame }), liveUrl: event.url, liveWindow: event.window, ...(first ? { first } : {}) };
    }
    case "progress.append": {
      const known = run.steps.some((s) => s.id === event.step.id);
      const steps = [...run.steps.filter((s) => s.id !== event.step.id), event.step].sort((a, b) => a.index - b.index);
      const { usage } = run.task;
      const added = known ? { input_tokens: 0, output_tokens: 0 } : event.step.usage;
      const cost = known ? run.task.cost_usd : addCosts(run.task.cost_usd, event.step.cost_usd);
      return {
        ...run,
        steps,
        task: task({
          current_step_index: Math.max(run.task.current_step_index, event.step.index),
          usage: { input_tokens: usage.input_tokens + added.input_tokens, output_tokens: usage.output_tokens + added.output_tokens },
          cost_usd: cost,
        }),
      };
    }
    case "task.activity":
      return { ...run, activity: { activity: event.activity, attempt: event.attempt, of: event.of, since: event.since } };
    case "task.awaiting_user":
      return { ...run, task: task({ status: "awaiting_user", answer: event.answer }) };
    case "approval.requested":
      return { ...run, task: task({ status: "awaiting_user", approval: event.approval, answer: [...new Set(event.approval.checks.map((c) => c.message || c.code))].join("\n") }) };
    case "snapshotSync":
      return { ...run, liveUrl: event.tab.url };
    case "task.file":
      // A refused file is the model's and the step's news; only a kept one can be downloaded.
      return event.refused ? run : { ...run, files: [...(run.files ?? []).filter((f) => f.id !== event.file.id), event.file] };
    case "task.takeover":
      return { ...run, task: task({ status: "takeover" }) };
    case "task.queued":
      return { ...run, task: task({ status: "queued", answer: null, approval: null }) };
    case "approval.resolved":
    case "task.resumed":
    case "task.running":
      return { ...run, task: task({ status: "running", answer: null, approval: null }) };
    case "task.completed":
      return { ...run, task: task({ status: "completed", answer: event.answer, finished_at: event.at }) };
    case "task.failed":
      return { ...run, task: task({ status: "failed", error: event.error, answer: null, approval: null, finished_at: event.at }) };
    case "task.stopped":
      return { ...run, task: task({ status: "stopped", answer: null, approval: null, finished_at: event.at }), stopReason: event.reason };
    default:
      return assertNever(event);
  }
}

function applyToReplies(replies: ReplyState[], event: ChatSessionEvent): ReplyState[] {
  if (event.type === "chat.started") {
    const started: ReplyState = { id: event.message_id, replyTo: event.reply_to, text: "", status: "streaming", message: null, error: null, endedAt: null };
    return [...replies.filter((r) => r.id !== event.message_id), started];
  }
  const update = (patch: (reply: ReplyState) => Partial<ReplyState>) =>
    replies.map((reply) => (reply.id === event.message_id ? { ...reply, ...patch(reply) } : reply));
  switch (event.type) {
    case "chat.delta":
      return update((reply) => (reply.status === "streaming" ? { text: reply.text + event.delta } : {}));
    case "chat.completed":
      return update(() => ({ status: "completed", message: event.message, text: event.message?.text ?? "", endedAt: event.at }));
    case "chat.failed": {
      // A failure can come without a started reply (the task could not be created): it still shows.
      const known = replies.some((reply) => reply.id === event.message_id);
      const failed = { status: "failed" as const, error: event.error, endedAt: event.at };
      return known ? update(() => failed) : [...replies, { id: event.message_id, replyTo: event.reply_to, text: "", message: null, ...failed }];
    }
    default:
      return assertNever(event);
  }
}

function applyToTurns(open: string[], event: ChatSessionEvent): string[] {
  const ends = event.type === "chat.failed" || (event.type === "chat.completed" && event.final);
  if (ends) return open.filter((id) => id !== event.reply_to);
  return event.type === "chat.started" && !open.includes(event.reply_to) ? [...open, event.reply_to] : open;
}

function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

const STATUS_RANK: Record<TaskStatus, number> = {
  queued: 0,
  running: 1,
  awaiting_user: 2,
  takeover: 2,
  completed: 3,
  failed: 3,
  stopped: 3,
};

function isBehind(a: Task, b: Task): boolean {
  if (a.current_step_index !== b.current_step_index) return a.current_step_index < b.current_step_index;
  return STATUS_RANK[a.status] < STATUS_RANK[b.status];
}

/** The run to show for a task: the event-built state unless the stored task is further along. */
export function selectRun(fromEvents: RunState | undefined, stored: Task | undefined): RunState | undefined {
  if (!stored) return fromEvents;
  if (!fromEvents) return { task: stored, steps: [], liveUrl: null, liveWindow: null, stopReason: null };
  return isBehind(fromEvents.task, stored) ? { ...fromEvents, task: stored } : fromEvents;
}

export function selectRuns(events: EventState, stored: readonly Task[]): Record<string, RunState> {
  const storedById = new Map(stored.map((task) => [task.id, task]));
  const ids = new Set([...Object.keys(events.runs), ...storedById.keys()]);
  const runs: Record<string, RunState> = {};
  for (const id of ids) {
    const run = selectRun(events.runs[id], storedById.get(id));
    if (run) runs[id] = run;
  }
  return runs;
}

/** The assistant is answering — writing, or waiting for the task it started: the prompt waits for it. */
export function isAnswering(state: Pick<EventState, "openTurns">): boolean {
  return state.openTurns.length > 0;
}

/** A task that is still under way: the prompt cannot start another in its session. */
export function isActive(status: TaskStatus): boolean {
  return status === "queued" || status === "running" || status === "awaiting_user" || status === "takeover";
}
