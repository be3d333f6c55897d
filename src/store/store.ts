// The store: sessions, messages, tasks, steps, events and frame records in SQLite or Postgres, plus
// frame images, attachments, received files and artifacts in the blob store (the data dir or a bucket). It implements the agent's ports (RunRecorder,
// ChatRecorder) and answers the API's reads.
import { sql, type Kysely, type Selectable } from "kysely";
import type { ChatRecorder, FrameOptions, ReceivedFile, RunRecorder, StepFrame } from "../agent/ports.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { DEFAULT_TITLE, summariseTitle } from "../core/chat-title.ts";
import { AppError } from "../core/errors.ts";
import { newId, nowIso } from "../core/ids.ts";
import type { Redactor } from "../core/redact.ts";
import {
  actionSchema,
  approvalSchema,
  stepEffectSchema,
  stepTimingsSchema,
  stepVerificationSchema,
  toolCallSchema,
  carriedOutSchema,
  type AgentEvent,
  type AgentEventOf,
  type AgentMode,
  type ComputerKind,
  type Attachment,
  type ChatMessage,
  type FrameRef,
  type ProgressStep,
  type Session,
  type Task,
  type TaskStatus,
} from "../protocol/index.ts";
import { openBlobs, type BlobStore, type S3Settings } from "./blobs.ts";
import { openDatabase, type Notices, type OpenDatabase } from "./database.ts";
import { jsonText, sqlFlavor, writtenOrder } from "./flavor.ts";
import { EventLog, type WriteGuard } from "./event-log.ts";
import { DataFiles } from "./files.ts";
import { ReceivedFiles } from "./received-files.ts";
import { deleteRefusal, deleteSessionRows, listSessions, renameSession } from "./sessions.ts";
import type { Database, MessagesTable, StepsTable, TasksTable } from "./schema.ts";

export const INTERRUPTED_MESSAGE = "interrupted: the server stopped while the task was running";

export class Store implements RunRecorder, ChatRecorder {
  readonly events: EventLog;
  readonly files: DataFiles;
  /** The files tasks received (downloads). */
  readonly received: ReceivedFiles;

  readonly db: Kysely<Database>;
  private readonly notices: Notices | null;

  private constructor(
    { db, notices }: OpenDatabase,
    private readonly blobs: BlobStore,
    /** What every task, step, message, artifact and event passes before it is written or sent (core/redact.ts). */
    private readonly redact: Redactor,
  ) {
    this.db = db;
    this.notices = notices;
    this.events = new EventLog(db, redact, notices);
    this.files = new DataFiles(db, blobs);
    this.received = new ReceivedFiles(db, blobs);
  }

  /**
   * The store under `dataDir`: its rows in SQLite there or, given `databaseUrl`, in that Postgres
   * database; its files there too or, given `s3` with a bucket, in that bucket.
   */
  static async open(dataDir: string, redact: Redactor = (value) => value, databaseUrl: string | null = null, s3: S3Settings | null = null): Promise<Store> {
    const database = await openDatabase(dataDir, databaseUrl);
    const blobs = await openBlobs(dataDir, s3).catch(async (error: unknown) => {
      await database.notices?.close();
      await database.db.destroy();
      throw error;
    });
    const store = new Store(database, blobs, redact);
    try {
      await store.events.start();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Says `payload` on `channel` to every process on the same Postgres that listens there (LISTEN/NOTIFY). */
  async say(channel: string, payload: string): Promise<void> {
    if (!this.notices) throw new AppError("STORAGE_FAILED", "Only processes sharing a Postgres database (DATABASE_URL) can talk to each other.");
    await sql`SELECT pg_notify(${channel}, ${payload})`.execute(this.db);
  }

  /** Calls `heard` with each payload said on `channel` (Postgres only); null when some may have been missed. */
  async hear(channel: string, heard: (payload: string | null) => void): Promise<void> {
    if (!this.notices) throw new AppError("STORAGE_FAILED", "Only processes sharing a Postgres database (DATABASE_URL) can talk to each other.");
    await this.notices.listen(channel, heard);
  }

  async close(): Promise<void> {
    this.events.stop();
    await this.notices?.close();
    await this.db.destroy();
    await this.blobs.close();
  }

  /** A task left active by a process that died becomes failed, with an event that says so. */
  async recoverInterrupted(): Promise<Task[]> {
    const active: TaskStatus[] = ["queued", "running", "awaiting_user", "takeover"];
    const rows = await this.db.selectFrom("tasks").selectAll().where("status", "in", active).execute();
    const recovered: Task[] = [];
    for (const row of rows) {
      // A task that waits for the person lost nothing: its steps (the tool agent's calls among
      // them) and its question are here, and the person's answer resumes it (Runtime.resumeStored).
      // A replay would have to find its place in the recording again; it ends here like a running task.
      const resumable = row.replay_of === null && row.computer === "browser";
      if (row.status === "awaiting_user" && resumable) continue;
      // One the person had answered after an earlier restart, that waited for its place (task.queued),
      // kept its question: it is asked again rather than lost with the answer.
      if (row.status === "queued" && resumable && (row.approval !== null || row.answer !== null)) {
        const task: Task = { ...(await this.toTask(row)), status: "awaiting_user" };
        await this.saveTask(task);
        await this.emit(
          task.session_id,
          task.approval
            ? { type: "approval.requested", task_id: task.id, approval: task.approval }
            : { type: "task.awaiting_user", task_id: task.id, answer: task.answer ?? "", show_ack_button: true },
        );
        continue;
      }
      const error = { code: "INTERRUPTED", message: INTERRUPTED_MESSAGE };
      const task: Task = { ...(await this.toTask(row)), status: "failed", error, approval: null, answer: null, finished_at: nowIso() };
      await this.saveTask(task);
      await this.emit(task.session_id, { type: "task.failed", task_id: task.id, error });
      recovered.push(task);
    }
    await this.recoverChatTurns();
    return recovered;
  }

  /** A chat answer a dead process was writing ends with an event that says it was cut off. */
  private async recoverChatTurns(): Promise<void> {
    const { rows } = await sql<{ session_id: string; data: string }>`
      SELECT session_id, data FROM events AS started
      WHERE type = 'chat.started' AND NOT EXISTS (
        SELECT 1 FROM events AS ended
        WHERE ended.session_id = started.session_id AND ended.type IN ('chat.completed', 'chat.failed')
          AND ${jsonText(this.db, "ended.data", "message_id")} = ${jsonText(this.db, "started.data", "message_id")})`.execute(this.db);
    for (const row of rows) {
      const { message_id, reply_to } = JSON.parse(row.data) as { message_id: string; reply_to: string };
      const error = { code: "INTERRUPTED", message: "interrupted: the server stopped while the assistant was answering" };
      await this.emit(row.session_id, { type: "chat.failed", message_id, reply_to, error });
    }
  }

  // ---- RunRecorder ----

  async createTask(unsafeTask: Task, unsafeMessage: ChatMessage, attachments: Attachment[]): Promise<void> {
    const task = this.redact(unsafeTask);
    const message = this.redact(unsafeMessage);
    await this.ensureSession(task.session_id, summariseTitle(task.text));
    await this.files.saveAttachments(message, attachments);
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto("tasks").values(taskRow(task)).execute();
      await trx
        .insertInto("messages")
        .values(messageRow(message))
        .onConflict((oc) => oc.column("id").doUpdateSet({ task_id: task.id }))
        .execute();
      await trx
        .insertInto("messages")
        .values(messageRow({ ...message, id: newId("msg"), role: "assistant", kind: "assistant_progress", text: "", attachments: [] }))
        .execute();
    });
  }

  async saveTask(task: Task): Promise<void> {
    const { id, ...row } = taskRow(this.redact(task));
    await this.db.updateTable("tasks").set(row).where("id", "=", id).execute();
    await this.db.updateTable("sessions").set({ updated_at: task.updated_at }).where("id", "=", task.session_id).execute();
  }

  async saveStep(unsafeStep: ProgressStep): Promise<void> {
    const step = this.redact(unsafeStep);
    await this.db
      .insertInto("steps")
      .values({
        id: step.id,
        task_id: step.task_id,
        idx: step.index,
        text: step.text,
        thought: step.thought,
        action: JSON.stringify(step.action),
        tool: step.tool ? JSON.stringify(step.tool) : null,
        carried_out: step.carried_out ? JSON.stringify(step.carried_out) : null,
        frame_id: step.screenshot?.id ?? null,
        cursor_x: step.cursor_x,
        cursor_y: step.cursor_y,
        url: step.url,
        effect: step.effect ? JSON.stringify(step.effect) : null,
        verification: step.verification ? JSON.stringify(step.verification) : null,
        timings: step.timings ? JSON.stringify(step.timings) : null,
        planner: step.planner,
        input_tokens: step.usage.input_tokens,
        output_tokens: step.usage.output_tokens,
        cost_usd: step.cost_usd,
        created_at: step.created_at,
      })
      .execute();
    const checks = step.verification?.attempts.flatMap((a) => [a.frame?.id, a.annotated?.id]) ?? [];
    const frames = [step.screenshot?.id, ...checks].filter((id): id is string => Boolean(id));
    await this.files.linkStep(frames, step.id);
  }

  async addUserMessage(unsafeMessage: ChatMessage, attachments: Attachment[]): Promise<void> {
    const message = this.redact(unsafeMessage);
    await this.ensureSession(message.session_id, summariseTitle(message.text));
    await this.files.saveAttachments(message, attachments);
    await this.addMessage(message);
  }

  async addMessage(message: ChatMessage): Promise<void> {
    await this.db.insertInto("messages").values(messageRow(this.redact(message))).execute();
  }

  stepFrame(task: Task, index: number, shot: Screenshot, options?: FrameOptions): StepFrame {
    return this.files.stepFrame(task, index, shot, options);
  }

  showLiveFrame(task: Task, shot: Screenshot): FrameRef {
    return this.files.showLiveFrame(task, shot);
  }

  keepLiveFrame(task: Task, done?: boolean): Promise<void> {
    return this.files.keepLiveFrame(task, done);
  }

  watchViewers(sessionId: string, listener: (watched: boolean) => void): () => void {
    return this.events.watchViewers(sessionId, listener);
  }

  saveArtifact(task: Task, text: string): Promise<string> {
    return this.files.saveArtifact(task, this.redact(text));
  }

  readArtifact(task: Task, id: string): Promise<string | null> {
    return this.files.readArtifact(task, id);
  }

  receivedFilePath(task: Task, id: string, name: string): string {
    return this.received.placeFor(task, id, name);
  }

  saveReceivedFile(task: Task, file: ReceivedFile): Promise<void> {
    return this.received.record(task, file);
  }

  /** A process that runs its own tasks holds each of them; a worker's hold is a LeasedRecorder's (store/task-leases.ts). */
  async holds(): Promise<boolean> {
    return true;
  }

  async emit(sessionId: string, event: AgentEvent): Promise<void> {
    await this.events.append(sessionId, event);
  }

  async taskAttachments(task: Task): Promise<Attachment[]> {
    // The person's first message of the task asked for it; later ones answered it.
    const asking = await this.db
      .selectFrom("messages")
      .selectAll()
      .where("task_id", "=", task.id)
      .where("role", "=", "user")
      .orderBy(writtenOrder(this.db))
      .executeTakeFirst();
    return asking ? this.files.readAttachments(toMessage(asking)) : [];
  }

  async taskFollowUps(taskId: string): Promise<ChatMessage[]> {
    const rows = await this.db.selectFrom("events").select("data").where("task_id", "=", taskId).where("type", "=", "task.follow_up").orderBy("seq").execute();
    return rows.map((row) => (JSON.parse(row.data) as AgentEventOf<"task.follow_up">).message);
  }

  // ---- a chat's sign-ins, when workers run its tasks ----

  /** The cookies a chat's browser held last, as JSON; null before any were kept. */
  async readSignIns(sessionId: string): Promise<string | null> {
    const row = await this.db.selectFrom("chat_sign_ins").select("cookies").where("session_id", "=", sessionId).executeTakeFirst();
    return row?.cookies ?? null;
  }

  /** Keeps them while the chat exists, and when `guard` allows it in the write's own transaction (a worker's lease). */
  async keepSignIns(sessionId: string, cookies: string, guard?: WriteGuard): Promise<void> {
    const updated_at = nowIso();
    await this.db.transaction().execute(async (trx) => {
      if (guard && !(await guard(trx))) return;
      // Under a share lock of the chat's row: a delete under way is waited for and then nothing is
      // written; a delete that comes after takes this row with the chat (sessions.ts).
      const chat = trx.selectFrom("sessions").select("id").where("id", "=", sessionId);
      if (!(await (sqlFlavor(trx) === "postgres" ? chat.forShare() : chat).executeTakeFirst())) return;
      await trx
        .insertInto("chat_sign_ins")
        .values({ session_id: sessionId, cookies, updated_at })
        .onConflict((oc) => oc.column("session_id").doUpdateSet({ cookies, updated_at }))
        .execute();
    });
  }

  async forgetSignIns(sessionId: string): Promise<void> {
    await this.db.deleteFrom("chat_sign_ins").where("session_id", "=", sessionId).execute();
  }

  // ---- reads ----

  /** A title given here is the person's, as a rename's is. */
  async createSession(title?: string): Promise<Session> {
    const now = nowIso();
    const row = { id: newId("ses"), title: title ?? DEFAULT_TITLE, created_at: now, updated_at: now };
    await this.db.insertInto("sessions").values({ ...row, renamed: title === undefined ? 0 : 1 }).execute();
    return { ...row, task_status: null, status: null, last_activity_at: now, cost_usd: 0 };
  }

  async ensureSession(id: string, title: string): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto("sessions")
      .values({ id, title, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    // The first message names the chat, unless the person already has.
    await this.db.updateTable("sessions").set({ title }).where("id", "=", id).where("title", "=", DEFAULT_TITLE).where("renamed", "=", 0).execute();
  }

  listSessions(): Promise<Session[]> {
    return listSessions(this.db);
  }

  async getSession(id: string): Promise<Session | undefined> {
    return (await listSessions(this.db, id))[0];
  }

  async renameSession(id: string, title: string): Promise<void> {
    await renameSession(this.db, id, title);
  }

  /** Why the session cannot be deleted now (a task or an answer under way), or null. */
  deleteRefusal(id: string): Promise<string | null> {
    return deleteRefusal(this.db, id);
  }

  /** The session, its messages, tasks, steps, events and frames, and its files. */
  async deleteSession(id: string): Promise<void> {
    await deleteSessionRows(this.db, id);
    await this.files.removeSession(id);
  }

  async listMessages(sessionId: string): Promise<ChatMessage[]> {
    const rows = await this.db
      .selectFrom("messages")
      .selectAll()
      .where("session_id", "=", sessionId)
      .orderBy(writtenOrder(this.db))
      .execute();
    return rows.map(toMessage);
  }

  /** The session's tasks, oldest first; only those in `status` when given. */
  async listTasks(sessionId: string, status?: TaskStatus): Promise<Task[]> {
    let query = this.db.selectFrom("tasks").selectAll().where("session_id", "=", sessionId);
    if (status) query = query.where("status", "=", status);
    const rows = await query.orderBy("created_at").execute();
    return Promise.all(rows.map((row) => this.toTask(row)));
  }

  async getTask(id: string): Promise<Task | undefined> {
    const row = await this.db.selectFrom("tasks").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.toTask(row) : undefined;
  }

  async listSteps(taskId: string): Promise<ProgressStep[]> {
    const rows = await this.db.selectFrom("steps").selectAll().where("task_id", "=", taskId).orderBy("idx").execute();
    return Promise.all(rows.map((row) => this.toStep(row)));
  }

  private async toTask(row: Selectable<TasksTable>): Promise<Task> {
    return {
      id: row.id,
      session_id: row.session_id,
      text: row.text,
      mode: row.mode as AgentMode,
      computer: row.computer as ComputerKind,
      extension_client_id: row.extension_client_id,
      replay_of: row.replay_of,
      cdp: row.cdp ? (JSON.parse(row.cdp) as Task["cdp"]) : null,
      start_url: row.start_url,
      status: row.status as TaskStatus,
      current_step_index: row.current_step_index,
      live_frame: await this.files.ref(row.live_frame_id),
      answer: row.answer,
      approval: row.approval ? approvalSchema.parse(JSON.parse(row.approval)) : null,
      error: row.error_code ? { code: row.error_code, message: row.error_message ?? "" } : null,
      model: row.model,
      usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
      cost_usd: row.cost_usd,
      created_at: row.created_at,
      updated_at: row.updated_at,
      finished_at: row.finished_at,
    };
  }

  private async toStep(row: Selectable<StepsTable>): Promise<ProgressStep> {
    return {
      id: row.id,
      task_id: row.task_id,
      index: row.idx,
      text: row.text,
      thought: row.thought,
      action: actionSchema.nullable().parse(JSON.parse(row.action)),
      tool: row.tool ? toolCallSchema.parse(JSON.parse(row.tool)) : null,
      carried_out: row.carried_out ? carriedOutSchema.parse(JSON.parse(row.carried_out)) : null,
      screenshot: await this.files.ref(row.frame_id),
      cursor_x: row.cursor_x,
      cursor_y: row.cursor_y,
      url: row.url,
      effect: row.effect ? stepEffectSchema.parse(JSON.parse(row.effect)) : null,
      verification: row.verification ? stepVerificationSchema.parse(JSON.parse(row.verification)) : null,
      planner: row.planner,
      usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
      cost_usd: row.cost_usd,
      created_at: row.created_at,
      ...(row.timings ? { timings: stepTimingsSchema.parse(JSON.parse(row.timings)) } : {}),
    };
  }
}

function taskRow(task: Task): TasksTable {
  return {
    id: task.id,
    session_id: task.session_id,
    text: task.text,
    mode: task.mode,
    computer: task.computer,
    extension_client_id: task.extension_client_id,
    replay_of: task.replay_of,
    cdp: task.cdp ? JSON.stringify(task.cdp) : null,
    start_url: task.start_url,
    status: task.status,
    current_step_index: task.current_step_index,
    live_frame_id: task.live_frame?.id ?? null,
    answer: task.answer,
    approval: task.approval ? JSON.stringify(task.approval) : null,
    error_code: task.error?.code ?? null,
    error_message: task.error?.message ?? null,
    model: task.model,
    input_tokens: task.usage.input_tokens,
    output_tokens: task.usage.output_tokens,
    cost_usd: task.cost_usd,
    created_at: task.created_at,
    updated_at: task.updated_at,
    finished_at: task.finished_at,
  };
}

function messageRow(message: ChatMessage): MessagesTable {
  return { ...message, attachments: JSON.stringify(message.attachments) };
}

function toMessage(row: Selectable<MessagesTable>): ChatMessage {
  return {
    ...row,
    role: row.role as ChatMessage["role"],
    kind: row.kind as ChatMessage["kind"],
    attachments: JSON.parse(row.attachments) as ChatMessage["attachments"],
  };
}

