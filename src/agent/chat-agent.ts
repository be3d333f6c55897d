// The chat assistant (master agent, seed 001 §2 and seed 004 §3.1, §5). A message in `auto`
// mode gets a turn: the chat model's text streams out as chat.delta events; when it calls
// `computer_task`, a task starts through the runtime (its run card appears as usual) and the
// turn waits for it to end, then hands the model the result to answer from. A message in `task`
// mode skips the assistant and starts a task at once. One turn or task per session at a time: a
// message sent while a task is under way goes to that task (a follow-up, or the answer it waits for).
// Stop ends a turn at once: what was streamed stays as the reply, and its task is stopped too.
import type { Logger } from "pino";
import type { z } from "zod";
import type { Config } from "../core/config.ts";
import type { LiveConfig } from "../core/live-config.ts";
import { raceAbort } from "../core/abort.ts";
import { AppError, StopRequested, toTaskError } from "../core/errors.ts";
import { newId, nowIso, today } from "../core/ids.ts";
import { redact, secretsOf } from "../core/redact.ts";
import type { ChatModel, ChatTurn } from "../models/chat/chat-model.ts";
import { RepairBudget, streamReply } from "../models/chat/conversation.ts";
import { isFinished, type ChatMessage, type ProgressStep, type SendReply, type Task } from "../protocol/index.ts";
import { defaultStepCap } from "./budget.ts";
import { computerTask, historyText, systemPrompt, userText } from "./chat-prompt.ts";
import type { ChatRecorder } from "./ports.ts";
import type { Runtime, Submission } from "./runtime.ts";

export interface ChatSubmission extends Omit<Submission, "message" | "maxSteps"> {
  mode: "auto" | "task";
}

/** What a tool call returns to the model (seed 004 §5's tool result). */
type ToolResult =
  | { ok: true; result: { task_id: string; status: "completed"; answer: string; steps: number } }
  | { ok: false; error: { code: string; message: string }; result?: { task_id: string; status: Task["status"]; steps: number } };

/** A `computer_task` call's arguments, as its schema parsed them. */
type TaskArgs = z.output<ReturnType<typeof computerTask>["input"]>;

/** What a turn may still spend: tasks to start, and second chances for unusable calls. */
interface TurnBudget {
  tasks: number;
  repairs: RepairBudget;
}

/** The turn ends without another reply: the person stopped the task it started. */
class TurnEnded extends Error {}

interface Turn {
  /** The person's message being answered. */
  messageId: string;
  controller: AbortController;
  /** The task the turn is waiting for, if any. */
  taskId: string | null;
}

/** Retry and Continue take up a task only once it has ended. */
function assertEnded(task: Task): void {
  if (!isFinished(task.status)) throw new AppError("TASK_NOT_ENDED", `Task ${task.id} is ${task.status}; stop it or wait for it to end first.`);
}

export class ChatAgent {
  /** The turn of each session that has one. */
  private readonly turns = new Map<string, Turn>();
  private readonly running = new Set<Promise<void>>();

  /**
   * The step cap of a task it starts when the person names none: CHAT_TASK_MAX_STEPS, else the
   * cap of the task's mode (the tool agent's AGENT_MAX_STEPS, a planner's MAX_STEPS), never above MAX_STEPS.
   */
  private taskSteps(submission: ChatSubmission): number {
    const { chat, limits } = this.config;
    return Math.min(chat.taskMaxSteps ?? defaultStepCap(submission.agentMode ?? this.config.agent.mode, this.config), limits.maxSteps);
  }

  constructor(
    private readonly runtime: Runtime,
    private readonly recorder: ChatRecorder,
    /** The chat model of the configuration as it is now. */
    private readonly chatModel: () => ChatModel,
    private readonly live: LiveConfig,
    private readonly log: Logger,
  ) {}

  /** As it is now: an answer takes the model the person set last, and keeps it (core/live-config.ts). */
  private get config(): Config {
    return this.live.current;
  }

  async send(submission: ChatSubmission): Promise<SendReply> {
    const { sessionId } = submission;
    const running = this.runtime.activeTask(sessionId);
    if (running) return this.followUp(running, submission);
    this.assertIdle(sessionId);
    if (submission.mode === "task") {
      const { task, message } = await this.runtime.submit(submission);
      return { session_id: sessionId, message_id: message.id, task_id: task.id };
    }
    const message: ChatMessage = {
      id: newId("msg"),
      session_id: sessionId,
      task_id: null,
      role: "user",
      kind: "user_text",
      text: submission.text,
      attachments: submission.attachments.map(({ name, mime_type }) => ({ name, mime_type })),
      created_at: nowIso(),
    };
    const turn: Turn = { messageId: message.id, controller: new AbortController(), taskId: null };
    this.turns.set(sessionId, turn);
    try {
      const history = await this.recorder.listMessages(sessionId);
      await this.recorder.addUserMessage(message, submission.attachments);
      const answering = this.answer(message, history, submission, turn)
        .catch((error: unknown) => this.log.error({ err: error, session_id: sessionId }, "the chat assistant's answer could not be recorded"))
        .finally(() => {
          this.turns.delete(sessionId);
          this.running.delete(answering);
        });
      this.running.add(answering);
    } catch (error) {
      this.turns.delete(sessionId);
      throw error;
    }
    return { session_id: sessionId, message_id: message.id, task_id: null };
  }

  /** A message to a session whose task is under way goes to that task (TaskCommands.tell). */
  private async followUp(taskId: string, submission: ChatSubmission): Promise<SendReply> {
    const refused = (why: string) => new AppError("FOLLOW_UP_REFUSED", `Task ${taskId} is under way and ${why}`);
    if (submission.attachments.length > 0) throw refused("cannot take files; send them once it has ended.");
    const told = await this.runtime.commands.tell(taskId, submission.text);
    if (!told) throw refused("starting or ending; send the message again in a moment.");
    return { session_id: submission.sessionId, message_id: told.messageId, task_id: taskId };
  }

  /**
   * "Run again": replays a completed task in its session from its recording, without the model
   * but for elements that are gone.
   */
  async runAgain(task: Task, steps: ProgressStep[]): Promise<{ task: Task; message: ChatMessage; done: Promise<Task> }> {
    if (task.status !== "completed") throw new AppError("NOT_REPLAYABLE", `Task ${task.id} cannot be run again: it is ${task.status}, not completed.`);
    // A planner's steps say what they carried out since replay reads it; an older recording does not.
    const acted = steps.filter((s) => s.tool === null && s.action !== null && s.action.type !== "done" && s.action.type !== "needs_user");
    if (task.mode === "actions" && acted.length > 0 && acted.every((s) => s.carried_out === null)) {
      throw new AppError("NOT_REPLAYABLE", `Task ${task.id} cannot be run again: it was recorded before planner steps kept what they carried out. Retry it instead.`);
    }
    this.assertIdle(task.session_id);
    // A recorded upload puts the same attachment in again.
    const attachments = await this.runtime.attachmentsOf(task);
    return this.runtime.submit({
      sessionId: task.session_id,
      text: task.text,
      attachments,
      startUrl: task.start_url ?? undefined,
      replay: { of: task, steps },
    });
  }

  /**
   * Retry: runs an ended task's text again in its session, from its start page, on what it
   * drove and as it was driven. The model is the configured one: a task does not record a
   * per-message model choice.
   */
  async retry(task: Task): Promise<{ task: Task; message: ChatMessage; done: Promise<Task> }> {
    assertEnded(task);
    this.assertIdle(task.session_id);
    const attachments = await this.runtime.attachmentsOf(task);
    return this.runtime.submit({ sessionId: task.session_id, text: task.text, attachments, startUrl: task.start_url ?? undefined, retry: task });
  }

  /**
   * Continue: a task that failed (its step cap among the reasons), was stopped or interrupted goes
   * on as a new task on the page it ended on, told its steps. It may take `extraSteps` more steps
   * (by default as many as it had: the steps it took if it ran out of them, else its mode's cap),
   * at most MAX_STEPS: the cap is per task, so a continuation never runs more than that.
   */
  async continueTask(task: Task, steps: ProgressStep[], extraSteps?: number): Promise<{ task: Task; message: ChatMessage; done: Promise<Task> }> {
    assertEnded(task);
    if (task.status === "completed") throw new AppError("NOT_CONTINUABLE", `Task ${task.id} completed; there is nothing to continue. Retry it to run it again.`);
    const { limits } = this.config;
    if (extraSteps !== undefined && extraSteps > limits.maxSteps) {
      throw new AppError("INVALID_BODY", `Invalid body: extra_steps: must be at most ${limits.maxSteps} (MAX_STEPS)`);
    }
    this.assertIdle(task.session_id);
    const earlierCap = task.error?.code === "STEP_LIMIT" && task.current_step_index > 0 ? task.current_step_index : defaultStepCap(task.mode, this.config);
    const attachments = await this.runtime.attachmentsOf(task);
    return this.runtime.submit({
      sessionId: task.session_id,
      text: task.text,
      attachments,
      startUrl: task.start_url ?? undefined,
      continues: { of: task, steps },
      maxSteps: Math.min(extraSteps ?? earlierCap, limits.maxSteps),
    });
  }

  private assertIdle(sessionId: string): void {
    const task = this.runtime.activeTask(sessionId);
    if (this.turns.has(sessionId) || task) {
      const what = task ? `running task ${task}` : "still answering the last message";
      throw new AppError("SESSION_BUSY", `Session ${sessionId} is ${what}; stop it or wait for it.`);
    }
  }

  /** The person's message the session's assistant is answering now, if any. */
  answering(sessionId: string): string | null {
    return this.turns.get(sessionId)?.messageId ?? null;
  }

  /** Stops the answer to a message of the person, and the task it is waiting for; false if there is none. */
  stop(messageId: string): boolean {
    const turn = [...this.turns.values()].find((t) => t.messageId === messageId);
    if (!turn || turn.controller.signal.aborted) return false;
    turn.controller.abort(new StopRequested());
    if (turn.taskId) void this.runtime.commands.stop(turn.taskId);
    return true;
  }

  /** Ends every turn (a task a turn started is stopped by the runtime's own shutdown). */
  async shutdown(): Promise<void> {
    for (const turn of this.turns.values()) turn.controller.abort(new AppError("INTERRUPTED", "interrupted: the server is shutting down"));
    await Promise.all(this.running);
  }

  private async answer(message: ChatMessage, history: ChatMessage[], submission: ChatSubmission, turn: Turn): Promise<void> {
    const { signal } = turn.controller;
    const { chat, limits } = this.config;
    const model = this.chatModel();
    const log = this.log.child({ session_id: message.session_id, message_id: message.id });
    const earlier = history.filter((m) => m.kind !== "assistant_progress" && m.text.trim()).slice(-chat.historyMessages);
    // A conversation starts with the person (Anthropic requires it).
    while (earlier[0]?.role === "assistant") earlier.shift();
    const chatTurns: ChatTurn[] = [
      ...earlier.map((m): ChatTurn => (m.role === "user" ? { role: "user", text: m.text } : { role: "assistant", text: historyText(m), toolCalls: [] })),
      { role: "user", text: userText(message.text, submission.attachments, submission.startUrl) },
    ];
    const tool = computerTask(limits.maxSteps, this.taskSteps(submission));
    const budget: TurnBudget = { tasks: chat.maxTasks, repairs: new RepairBudget(this.config.model.repairRetries) };
    // Each model answer is one reply in the chat; none is open while a task runs.
    let reply: { id: string; text: string } | null = null;
    try {
      for (;;) {
        const open = { id: await this.begin(message), text: "" };
        reply = open;
        // Once the budget is spent the model may not call tools, so it has to answer in words.
        const toolChoice = budget.tasks > 0 && !budget.repairs.spent ? "auto" : "none";
        // The text grows as it streams, so a stop keeps what was shown.
        const onDelta = (delta: string) => {
          open.text += delta;
          return this.recorder.emit(message.session_id, { type: "chat.delta", message_id: open.id, reply_to: message.id, delta });
        };
        const { calls, usage } = await streamReply(
          model,
          { system: systemPrompt(today()), turns: chatTurns, tools: [tool], toolChoice },
          { signal, onDelta, budget: budget.repairs },
        );
        log.info({ model: model.name, usage, tool_calls: calls.length }, "chat model answered");
        chatTurns.push({ role: "assistant", text: open.text, toolCalls: calls.map((c) => c.call) });
        await this.complete(open.id, message, open.text, calls.length === 0);
        reply = null;
        if (calls.length === 0) return;
        for (const checked of calls) {
          const result = checked.ok ? await this.runTask(checked.input, message, submission, budget, turn) : { ok: false as const, error: checked.error };
          chatTurns.push({ role: "tool", toolCallId: checked.call.id, name: checked.call.name, content: JSON.stringify(result) });
        }
      }
    } catch (error) {
      // Stopped: what the person has seen stays as the reply, and the turn is over.
      if (error instanceof TurnEnded || signal.reason instanceof StopRequested) return this.complete(reply?.id ?? newId("msg"), message, reply?.text ?? "", true);
      const cause: unknown = signal.aborted ? signal.reason : error;
      const { code, message: shown } = toTaskError(cause);
      const text = redact(shown, secretsOf(this.config));
      log.warn({ err: cause }, "the chat assistant could not answer");
      const failed = { type: "chat.failed", message_id: reply?.id ?? newId("msg"), reply_to: message.id, error: { code, message: text } } as const;
      await this.recorder.emit(message.session_id, failed);
    }
  }

  /** Runs a checked call: starts its task and waits for it to end; over the task limit it is refused. */
  private async runTask(args: TaskArgs, message: ChatMessage, submission: ChatSubmission, budget: TurnBudget, turn: Turn): Promise<ToolResult> {
    const { chat } = this.config;
    if (budget.tasks <= 0) {
      budget.repairs.charge();
      return { ok: false, error: { code: "TASK_LIMIT", message: `One answer may start at most ${chat.maxTasks} tasks; answer with what you have.` } };
    }
    budget.tasks--;
    turn.controller.signal.throwIfAborted();
    const { task, done } = await this.runtime.submit({
      sessionId: message.session_id,
      text: args.task,
      attachments: submission.attachments,
      startUrl: args.start_url ?? submission.startUrl,
      model: submission.model,
      agentMode: submission.agentMode,
      computer: submission.computer,
      extensionClient: submission.extensionClient,
      cdp: submission.cdp,
      message,
      // The assistant's wording and choice of page are not the person's: what only they name is asked about.
      personWords: { text: message.text, startUrl: submission.startUrl ?? null },
      maxSteps: args.max_steps ?? this.taskSteps(submission),
    });
    turn.taskId = task.id;
    // Stopped while the task was being created: it is stopped too.
    if (turn.controller.signal.aborted) void this.runtime.commands.stop(task.id);
    const ended = await raceAbort(done, turn.controller.signal);
    turn.taskId = null;
    const result = { task_id: task.id, status: ended.status, steps: ended.current_step_index };
    switch (ended.status) {
      case "completed":
        return { ok: true, result: { ...result, status: "completed", answer: ended.answer ?? "" } };
      case "stopped":
        throw new TurnEnded();
      default:
        return { ok: false, error: ended.error ?? { code: "INTERNAL", message: `the task ended ${ended.status}` }, result };
    }
  }

  private async begin(message: ChatMessage): Promise<string> {
    const reply = newId("msg");
    await this.recorder.emit(message.session_id, { type: "chat.started", message_id: reply, reply_to: message.id });
    return reply;
  }

  /** Stores the reply (none when it is empty) and ends its stream; `final` when the turn ends with it. */
  private async complete(reply: string, message: ChatMessage, text: string, final: boolean): Promise<void> {
    const stored: ChatMessage | null = text.trim()
      ? { id: reply, session_id: message.session_id, task_id: null, role: "assistant", kind: "assistant_answer", text, attachments: [], created_at: nowIso() }
      : null;
    if (stored) await this.recorder.addMessage(stored);
    await this.recorder.emit(message.session_id, { type: "chat.completed", message_id: reply, reply_to: message.id, message: stored, final });
  }
}
