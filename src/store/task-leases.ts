// A worker's hold on a task it runs (issue 38). Taking a task — the first time, or taking up one
// whose worker died or froze — counts the task's epoch on; a worker whose epoch is not the last
// lost the task and keeps nothing more it records for it, so a frozen worker that wakes after
// another took its task up cannot add to it. Its events are refused inside their own write, under
// a share lock of the lease row, so an event is written either before the task was taken up or not
// at all, and so are the chat's sign-ins it keeps; its other writes are checked just before they are made.
import { sql, type Kysely, type Transaction } from "kysely";
import type { Logger } from "pino";
import type { FrameOptions, ReceivedFile, RunRecorder, StepFrame } from "../agent/ports.ts";
import { AppError } from "../core/errors.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { AgentEvent, Attachment, ChatMessage, FrameRef, ProgressStep, Task } from "../protocol/index.ts";
import { sqlFlavor } from "./flavor.ts";
import type { Database } from "./schema.ts";
import type { Store } from "./store.ts";

export interface TaskLease {
  taskId: string;
  /** Who took it, for the logs. */
  holder: string;
  epoch: number;
}

/** Takes the task for `holder`: whoever held it before holds it no more. */
export async function takeLease(db: Kysely<Database>, taskId: string, holder: string): Promise<TaskLease> {
  const row = await db
    .insertInto("task_leases")
    .values({ task_id: taskId, holder, epoch: 1 })
    .onConflict((oc) => oc.column("task_id").doUpdateSet({ holder, epoch: sql<number>`task_leases.epoch + 1` }))
    .returning("epoch")
    .executeTakeFirstOrThrow();
  return { taskId, holder, epoch: Number(row.epoch) };
}

/**
 * Gives up every task `holder` holds (a worker shutting down): their epochs move on, so whatever
 * its runs still try to record is refused, and the worker that takes one up next holds it.
 */
export async function giveUpLeases(db: Kysely<Database>, holder: string): Promise<void> {
  await db.updateTable("task_leases").set({ holder: "", epoch: sql<number>`epoch + 1` }).where("holder", "=", holder).execute();
}

/** Whether the lease is still the task's last; `lock` (in a transaction) keeps it so until the transaction ends. */
async function stillHeld(db: Kysely<Database> | Transaction<Database>, lease: TaskLease, lock: boolean): Promise<boolean> {
  const query = db.selectFrom("task_leases").select("epoch").where("task_id", "=", lease.taskId);
  const row = await (lock && sqlFlavor(db) === "postgres" ? query.forShare() : query).executeTakeFirst();
  return row !== undefined && Number(row.epoch) === lease.epoch;
}

/**
 * The store as a worker records a task it holds: every write goes through while the lease is the
 * task's last, and none once it is not (the run is told by `holds`, and stops).
 */
export class LeasedRecorder implements RunRecorder {
  private held = true;

  constructor(
    private readonly store: Store,
    private readonly lease: TaskLease,
    private readonly log: Logger,
  ) {}

  async holds(): Promise<boolean> {
    if (this.held && !(await stillHeld(this.store.db, this.lease, false))) this.lose();
    return this.held;
  }

  private lose(): void {
    if (!this.held) return;
    this.held = false;
    this.log.warn({ task_id: this.lease.taskId, epoch: this.lease.epoch }, "another worker took this task up: this one acts and records nothing more for it");
  }

  private async whileHeld(write: () => Promise<void>): Promise<void> {
    if (await this.holds()) await write();
  }

  /** For a write that answers something: refused with an error once the task is lost. */
  private async mustHold(): Promise<void> {
    if (!(await this.holds())) throw new AppError("INTERRUPTED", `Task ${this.lease.taskId} was taken up by another worker; this one records nothing more for it.`);
  }

  createTask(task: Task, message: ChatMessage, attachments: Attachment[]): Promise<void> {
    return this.whileHeld(() => this.store.createTask(task, message, attachments));
  }

  saveTask(task: Task): Promise<void> {
    return this.whileHeld(() => this.store.saveTask(task));
  }

  saveStep(step: ProgressStep): Promise<void> {
    return this.whileHeld(() => this.store.saveStep(step));
  }

  addMessage(message: ChatMessage): Promise<void> {
    return this.whileHeld(() => this.store.addMessage(message));
  }

  stepFrame(task: Task, index: number, shot: Screenshot, options?: FrameOptions): StepFrame {
    const frame = this.store.stepFrame(task, index, shot, options);
    return { ref: frame.ref, save: () => this.whileHeld(() => frame.save()) };
  }

  showLiveFrame(task: Task, shot: Screenshot): FrameRef {
    return this.store.showLiveFrame(task, shot);
  }

  keepLiveFrame(task: Task, done?: boolean): Promise<void> {
    return this.whileHeld(() => this.store.keepLiveFrame(task, done));
  }

  watchViewers(sessionId: string, listener: (watched: boolean) => void): () => void {
    return this.store.watchViewers(sessionId, listener);
  }

  async saveArtifact(task: Task, text: string): Promise<string> {
    await this.mustHold();
    return this.store.saveArtifact(task, text);
  }

  readArtifact(task: Task, id: string): Promise<string | null> {
    return this.store.readArtifact(task, id);
  }

  receivedFilePath(task: Task, id: string, name: string): string {
    return this.store.receivedFilePath(task, id, name);
  }

  saveReceivedFile(task: Task, file: ReceivedFile): Promise<void> {
    return this.whileHeld(() => this.store.saveReceivedFile(task, file));
  }

  async emit(sessionId: string, event: AgentEvent): Promise<void> {
    if (!this.held) return;
    const written = await this.store.events.appendIf(sessionId, event, (trx) => stillHeld(trx, this.lease, true));
    if (!written) this.lose();
  }

  async keepSignIns(sessionId: string, cookies: string): Promise<void> {
    if (!this.held) return;
    let held = true;
    await this.store.keepSignIns(sessionId, cookies, async (trx) => (held = await stillHeld(trx, this.lease, true)));
    if (!held) this.lose();
  }

  taskAttachments(task: Task): Promise<Attachment[]> {
    return this.store.taskAttachments(task);
  }

  taskFollowUps(taskId: string): Promise<ChatMessage[]> {
    return this.store.taskFollowUps(taskId);
  }
}
