// The person's commands to a task under way — Stop, "I've done it", a message, a decision, take
// over, hand back, their input — and how each reaches what holds the task: its run, or its wait
// held for the person, in this process; else, with workers, the worker that holds it, through the
// task queue (worker/task-commands.ts carries a command there and its reply back).
import { nowIso } from "../core/ids.ts";
import type { LiveConfig } from "../core/live-config.ts";
import { isFinished, type PersonInput, type Task } from "../protocol/index.ts";
import type { HeldWait } from "./held-wait.ts";
import type { CommandReply, RunRecorder, TaskCommand, TaskDispatch } from "./ports.ts";
import { TaskRecord } from "./task-record.ts";
import { ackText, type TaskRun } from "./task-run.ts";

export class TaskCommands {
  constructor(
    private readonly live: LiveConfig,
    /** The runs and held waits of this process, which the Runtime keeps. */
    private readonly runs: ReadonlyMap<string, TaskRun>,
    private readonly waits: ReadonlyMap<string, HeldWait>,
    private readonly recorder: RunRecorder,
    private readonly dispatch: TaskDispatch | null,
  ) {}

  /** Whether tasks run in workers (TASK_QUEUE=postgres): then a task that has not ended is held by one. */
  get queued(): boolean {
    return this.dispatch !== null;
  }

  /** Whether the task runs here, or waits here for the person (a worker's, held since the worker before died). */
  isActive(taskId: string): boolean {
    return this.runs.has(taskId) || this.waits.has(taskId);
  }

  /** Whether the task is under way where this process can reach it: run here, or, with workers, not ended (a worker holds it or will). */
  holds(task: Task): boolean {
    return this.isActive(task.id) || (this.queued && !isFinished(task.status));
  }

  /**
   * False when the task is not running in this process, nor held by a worker. Resolves once the
   * action the task was doing has stopped where it acted (TaskRun `stopped`), wherever it runs.
   */
  stop(taskId: string, reason?: string): Promise<boolean> {
    return this.command(taskId, { kind: "stop", ...(reason ? { reason } : {}) });
  }

  /** What "I've done it" says when the person adds no words. */
  get ackText(): string {
    return ackText(this.live.current.locale);
  }

  acknowledge(taskId: string, text = this.ackText): Promise<boolean> {
    return this.command(taskId, { kind: "acknowledge", text });
  }

  /** The person's message to a task under way (TaskRun.tell); null when it is not running here, or is ending. */
  tell(taskId: string, text: string): Promise<{ messageId: string; answered: boolean } | null> {
    return this.command(taskId, { kind: "tell", text });
  }

  decide(taskId: string, approvalId: string, approved: boolean): Promise<boolean> {
    return this.command(taskId, { kind: "decide", approvalId, approved });
  }

  takeOver(taskId: string): Promise<boolean> {
    return this.command(taskId, { kind: "takeOver" });
  }

  handBack(taskId: string): Promise<boolean> {
    return this.command(taskId, { kind: "handBack" });
  }

  personInput(taskId: string, input: PersonInput): Promise<boolean> {
    return this.command(taskId, { kind: "personInput", input });
  }

  /** Stops the task wherever it is — run here, held by a worker, or still queued for one; false when it has ended. */
  async stopWherever(task: Task, reason?: string): Promise<boolean> {
    if (await this.stop(task.id, reason)) return true;
    // A task still waiting for a worker is held by none: it ends here, and no worker runs it then.
    if (!this.queued || task.status !== "queued") return false;
    await this.stopStored(task);
    return true;
  }

  /**
   * Stops a task nothing runs: one that waits for the person since an earlier process died, one
   * still queued for a worker, or one a worker holds waiting (then `recorder` is its hold on it).
   */
  async stopStored(task: Task, recorder = this.recorder, reason = "stopped by the user"): Promise<Task> {
    const record = new TaskRecord(task, recorder);
    await record.update({ status: "stopped", approval: null, answer: null, finished_at: nowIso() });
    await record.emit({ type: "task.stopped", task_id: task.id, reason });
    return record.current;
  }

  /** Carries out the person's command on a task running here, else on the worker that holds it; the reply says it did not take when neither does. */
  private async command<C extends TaskCommand>(taskId: string, command: C): Promise<CommandReply<C>> {
    const missed = (command.kind === "tell" ? null : false) as CommandReply<C>;
    if (this.isActive(taskId)) return (await this.carryOut(taskId, command)) ?? missed;
    return (await this.dispatch?.command(taskId, command)) ?? missed;
  }

  /** A command to a task running in this process (a worker's, from `serve`); null when it does not run here. */
  async carryOut<C extends TaskCommand>(taskId: string, command: TaskCommand & C): Promise<CommandReply<C> | null> {
    const wait = this.waits.get(taskId);
    if (wait) return wait.reply(command);
    const run = this.runs.get(taskId);
    if (!run) return null;
    const reply = await this.replyOf(run, command);
    return reply as CommandReply<C>;
  }

  private async replyOf(run: TaskRun, command: TaskCommand): Promise<boolean | { messageId: string; answered: boolean } | null> {
    switch (command.kind) {
      case "stop":
        run.stop(command.reason);
        await run.stopped();
        return true;
      case "acknowledge":
        return run.acknowledge(command.text);
      case "tell":
        return (await run.tell(command.text)) ?? null;
      case "decide":
        return run.decide(command.approvalId, command.approved);
      case "takeOver":
        return run.takeOver();
      case "handBack":
        return run.handBack();
      case "personInput":
        return run.personInput(command.input);
    }
  }
}
