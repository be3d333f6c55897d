// One AG-UI run as our session events tell it: the one place that maps the event log (protocol/
// events.ts) to AG-UI's events. A run follows what its input started or answered — a chat turn
// (the person's message, `turn`) with the tasks it starts, or a task — and ends where that comes to
// rest: the turn's last word, the task's end, or a wait for the person, which ends the run with
// AG-UI's interrupt outcome (the next run's `resume` answers it). Steps become STEP_STARTED /
// STEP_FINISHED, the tool agent's calls TOOL_CALL_*, the assistant's words TEXT_MESSAGE_*, the
// task's status the run's state; live frames, approvals and the rest go out as CUSTOM events.
import { EventType, PROTOCOL_VERSION, type BaseEvent, type Interrupt, type RunFinishedOutcome } from "@ag-ui/core";
import type { ProgressStep, SessionEvent, Task, TaskActivity, TaskStatus } from "../../protocol/index.ts";

/** The run's state (AG-UI STATE_SNAPSHOT / STATE_DELTA): the task it follows, as it stands. */
export interface RunState {
  task: { id: string; status: TaskStatus; step: number; activity: TaskActivity | null; url: string | null } | null;
}

/** What the run follows: the person's message a chat turn answers, and the tasks known to be its own. */
export interface RunScope {
  turn: string | null;
  tasks: Task[];
}

/** How an interrupt is answered: its `reason`, and the id the resume entry names. */
export const AWAITING_USER = "awaiting_user";
export const APPROVAL = "approval";

/** The interrupt of a task that waits for the person to act and say so; its id names the task. */
export function askId(taskId: string, eventId: number): string {
  return `${taskId}-ask-${eventId}`;
}

/** Whether an interrupt id is one of the task's waits for the person. */
export function isAskOf(interruptId: string, taskId: string): boolean {
  return interruptId.startsWith(`${taskId}-ask-`);
}

function assertNever(value: never): never {
  throw new Error(`unexpected event ${JSON.stringify(value)}`);
}

export class AguiRun {
  private readonly tasks: Set<string>;
  private state: RunState;
  /** The step open between STEP_STARTED and STEP_FINISHED, and the index of the last one made. */
  private openStep: string | null = null;
  private lastStep: number;
  /** The assistant's reply being streamed, and how much of its text went out: a reply opens as a message with its first words. */
  private reply: { id: string; sent: string } | null = null;
  private stopped = false;
  ended = false;

  constructor(
    private readonly threadId: string,
    private readonly runId: string,
    private readonly scope: RunScope,
  ) {
    this.tasks = new Set(scope.tasks.map((t) => t.id));
    const task = scope.tasks.at(-1);
    this.state = { task: task ? taskState(task) : null };
    this.lastStep = task?.current_step_index ?? 0;
  }

  /** The run's opening: RUN_STARTED, then the state it starts from. */
  start(): BaseEvent[] {
    return [
      { type: EventType.RUN_STARTED, threadId: this.threadId, runId: this.runId, protocolVersion: PROTOCOL_VERSION },
      { type: EventType.STATE_SNAPSHOT, snapshot: this.state },
    ];
  }

  /** The AG-UI events a session event makes; none once the run has ended or for what it does not follow. */
  take(event: SessionEvent): BaseEvent[] {
    if (this.ended || !this.follows(event)) return [];
    switch (event.type) {
      case "task.started":
        this.tasks.add(event.task_id);
        this.lastStep = event.task.current_step_index;
        this.state = { task: taskState(event.task) };
        return [{ type: EventType.STATE_SNAPSHOT, snapshot: this.state }];
      case "progress.append":
        return this.step(event.step);
      case "task.activity":
        return [...this.openNext(), ...this.patch({ activity: event.activity })];
      case "task.awaiting_user":
        return this.interrupt({ status: "awaiting_user" }, { id: askId(event.task_id, event.id), reason: AWAITING_USER, message: event.answer, responseSchema: ASK_SCHEMA, metadata: { task_id: event.task_id } });
      case "approval.requested": {
        const { approval } = event;
        const message = approval.checks.map((c) => c.message).join(" ") || approval.intent;
        return [
          custom(event),
          ...this.interrupt({ status: "awaiting_user" }, { id: approval.id, reason: APPROVAL, message, responseSchema: APPROVAL_SCHEMA, metadata: { task_id: event.task_id, approval } }),
        ];
      }
      case "approval.resolved":
        return [custom(event), ...this.patch({ status: "running" })];
      case "task.resumed":
      case "task.running":
        return this.patch({ status: "running" });
      case "task.queued":
        return this.patch({ status: "queued" });
      case "task.takeover":
        return [custom(event), ...this.patch({ status: "takeover" })];
      case "screen.live":
      case "task.follow_up":
      case "task.follow_up_read":
      case "snapshotSync":
      case "task.file":
        return [custom(event)];
      case "task.completed": {
        const ended = [...this.closeStep(), ...this.patch({ status: "completed", activity: null })];
        if (this.scope.turn) return ended;
        // A task of its own (task mode): its answer is the assistant's message, and the run's result.
        const messageId = `${event.task_id}-answer`;
        const words = event.answer
          ? [
              { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
              { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: event.answer },
              { type: EventType.TEXT_MESSAGE_END, messageId },
            ]
          : [];
        return [...ended, ...words, ...this.finish({ type: "success" }, { task_id: event.task_id, answer: event.answer })];
      }
      case "task.failed": {
        const ended = [...this.closeStep(), ...this.patch({ status: "failed", activity: null })];
        // In a chat turn the assistant answers from the failure; a task of its own fails the run.
        return this.scope.turn ? ended : [...ended, this.error(event.error.code, event.error.message)];
      }
      case "task.stopped": {
        this.stopped = true;
        const ended = [...this.closeStep(), ...this.patch({ status: "stopped", activity: null })];
        return this.scope.turn ? ended : [...ended, ...this.finish({ type: "cancelled" })];
      }
      case "chat.started":
        // A reply that only hands the message to a task says nothing: it makes no message.
        this.reply = { id: event.message_id, sent: "" };
        return [];
      case "chat.delta":
        return this.text(event.message_id, event.delta);
      case "chat.completed": {
        // A subscriber that fell behind gets the stored whole instead of the deltas: what was not sent goes now.
        const whole = event.message?.text ?? "";
        const rest = this.reply?.id === event.message_id && whole.startsWith(this.reply.sent) ? whole.slice(this.reply.sent.length) : "";
        const out = [...this.text(event.message_id, rest), ...this.endText(event.message_id)];
        return event.final ? [...out, ...this.finish(this.stopped ? { type: "cancelled" } : { type: "success" })] : out;
      }
      case "chat.failed": {
        return [...this.endText(event.message_id), this.error(event.error.code, event.error.message)];
      }
      default:
        return assertNever(event);
    }
  }

  /** Events of the tasks it follows, and of its chat turn (which may start tasks). */
  private follows(event: SessionEvent): boolean {
    if ("task_id" in event) return this.tasks.has(event.task_id) || (event.type === "task.started" && this.scope.turn !== null);
    return event.reply_to === this.scope.turn;
  }

  private step(step: ProgressStep): BaseEvent[] {
    const opened = this.openNext();
    const name = this.openStep!;
    const tool = step.tool
      ? [
          { type: EventType.TOOL_CALL_START, toolCallId: step.id, toolCallName: step.tool.name },
          { type: EventType.TOOL_CALL_ARGS, toolCallId: step.id, delta: JSON.stringify(step.tool.input ?? {}) },
          { type: EventType.TOOL_CALL_END, toolCallId: step.id },
          // The tool ran on the server: its result comes with it, so no client takes it for a call of its own to answer.
          { type: EventType.TOOL_CALL_RESULT, messageId: `${step.id}-result`, toolCallId: step.id, role: "tool", content: JSON.stringify(step.tool.ok ? (step.tool.output ?? null) : { error: step.tool.error }) },
        ]
      : [];
    this.openStep = null;
    this.lastStep = step.index;
    return [...opened, ...tool, { type: EventType.STEP_FINISHED, stepName: name }, ...this.patch({ step: step.index, activity: null, url: step.url })];
  }

  /** Opens the next step, unless one is open: the first sign of a step is its activity, else the step itself. */
  private openNext(): BaseEvent[] {
    if (this.openStep) return [];
    this.openStep = `step ${this.lastStep + 1}`;
    return [{ type: EventType.STEP_STARTED, stepName: this.openStep }];
  }

  /** A run ends with no step open. */
  private closeStep(): BaseEvent[] {
    if (!this.openStep) return [];
    const name = this.openStep;
    this.openStep = null;
    return [{ type: EventType.STEP_FINISHED, stepName: name }];
  }

  private text(messageId: string, delta: string): BaseEvent[] {
    if (!delta || this.reply?.id !== messageId) return [];
    const start = this.reply.sent ? [] : [{ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" }];
    this.reply.sent += delta;
    return [...start, { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }];
  }

  /** Ends the reply's message, if its words opened one. */
  private endText(messageId: string): BaseEvent[] {
    const opened = this.reply?.id === messageId && this.reply.sent !== "";
    if (this.reply?.id === messageId) this.reply = null;
    return opened ? [{ type: EventType.TEXT_MESSAGE_END, messageId }] : [];
  }

  /** Changes the followed task's state; a task it has no state of yet gets none. */
  private patch(change: Partial<NonNullable<RunState["task"]>>): BaseEvent[] {
    const task = this.state.task;
    if (!task) return [];
    const delta = Object.entries(change)
      .filter(([key, value]) => task[key as keyof typeof task] !== value)
      .map(([key, value]) => ({ op: "replace", path: `/task/${key}`, value }));
    if (delta.length === 0) return [];
    this.state = { task: { ...task, ...change } };
    return [{ type: EventType.STATE_DELTA, delta }];
  }

  private interrupt(change: Partial<NonNullable<RunState["task"]>>, interrupt: Interrupt): BaseEvent[] {
    return [...this.closeStep(), ...this.patch({ ...change, activity: null }), ...this.finish({ type: "interrupt", interrupts: [interrupt] })];
  }

  private finish(outcome: RunFinishedOutcome, result?: unknown): BaseEvent[] {
    this.ended = true;
    return [...this.closeStep(), { type: EventType.RUN_FINISHED, threadId: this.threadId, runId: this.runId, outcome, ...(result === undefined ? {} : { result }) }];
  }

  private error(code: string, message: string): BaseEvent {
    this.ended = true;
    return { type: EventType.RUN_ERROR, code, message };
  }
}

function taskState(task: Task): NonNullable<RunState["task"]> {
  return { id: task.id, status: task.status, step: task.current_step_index, activity: null, url: task.start_url };
}

/** Our event as it is, without its place in the session's log, under its own name. */
function custom(event: SessionEvent): BaseEvent {
  const { id: _id, session_id: _session, at: _at, type, ...value } = event;
  return { type: EventType.CUSTOM, name: type, value };
}

/** What answers a wait for the person: `text`, what they say they did (optional). */
const ASK_SCHEMA = { type: "object", properties: { text: { type: "string", maxLength: 20_000 } }, additionalProperties: false };
/** What answers an approval: whether the action may go ahead. */
const APPROVAL_SCHEMA = { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"], additionalProperties: false };
