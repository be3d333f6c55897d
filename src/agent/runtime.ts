// The runtime: accepts tasks and runs each in its own TaskRun; the person's commands reach them
// through `commands` (agent/task-commands.ts). Tasks in different sessions run concurrently, up to
// MAX_CONCURRENT_TASKS (the rest wait, queued); a session runs one task at a time and a second send
// while one is active is refused with SESSION_BUSY (409). With a TaskDispatch (TASK_QUEUE=postgres),
// `serve` records each task and queues it for a worker instead, and a worker's Runtime runs what it
// takes (`take`), or ends it when it cannot go on.
import type { Logger } from "pino";
import type { Config } from "../core/config.ts";
import type { LiveConfig } from "../core/live-config.ts";
import { allowedEndpoint, configuredEndpoint, redactUrl } from "../core/cdp-endpoints.ts";
import type { PersonWords } from "../core/approval-policy.ts";
import { AppError } from "../core/errors.ts";
import { newId, nowIso } from "../core/ids.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import { chatTakesImages } from "../models/chat/index.ts";
import { isFinished, type AgentMode, type Attachment, type ChatMessage, type ComputerKind, type ModelChoice, type ProgressStep, type Task } from "../protocol/index.ts";
import type { QueuedTask, RunRecorder, TaskDispatch, TaskResources } from "./ports.ts";
import { defaultStepCap } from "./budget.ts";
import type { Driver } from "./driver.ts";
import { ActionReplayDriver } from "./drivers/action-replay.ts";
import { PlannerDriver } from "./drivers/planner.ts";
import { ReplayDriver } from "./drivers/replay.ts";
import { ToolDriver } from "./drivers/tools.ts";
import { TaskQueue } from "./task-queue.ts";
import { HeldWait } from "./held-wait.ts";
import { continuationOf, resumptionOf, takenUpOf, type PersonAnswer, type Resumption } from "./resumption.ts";
import { recalledHistory } from "./step-history.ts";
import { TaskCommands } from "./task-commands.ts";
import { TaskRun } from "./task-run.ts";
import { TaskRecord } from "./task-record.ts";

/** The person's message of a replay: they pressed "Run again". */
const RUN_AGAIN_TEXT = "Run again";
/** The person's messages of Retry and Continue on an ended task's card. */
const RETRY_TEXT = "Retry";
const CONTINUE_TEXT = "Continue";

export interface Submission {
  sessionId: string;
  text: string;
  attachments: Attachment[];
  startUrl?: string | undefined;
  /** The task's own model; by default the configured one. */
  model?: ModelChoice | undefined;
  /** The person's message, already stored, that the task answers (a task the chat assistant started). */
  message?: ChatMessage | undefined;
  /** The person's own words and start page, when the chat assistant worded the task: only they name origins. */
  personWords?: PersonWords | undefined;
  /** The task's step cap, when lower than the configured one. */
  maxSteps?: number | undefined;
  /** How the task is driven; by default the configured agent mode. */
  agentMode?: AgentMode | undefined;
  /** What the task drives; by default the configured computer. */
  computer?: ComputerKind | undefined;
  /** The extension client to drive (computer "extension"); by default the registry's choice. */
  extensionClient?: string | undefined;
  /** A running browser's page to drive: `url` (else CDP_URL, or the person's Chrome with ATTACH_CHROME) and its target (else the first page, or CDP_TARGET_ID for CDP_URL's). */
  cdp?: { url?: string | undefined; targetId?: string | undefined } | undefined;
  /** "Run again": the task replays this completed task's recording. */
  replay?: { of: Task; steps: ProgressStep[] } | undefined;
  /** Retry: the ended task this one runs again, with its mode, computer, extension and browser. */
  retry?: Task | undefined;
  /** Continue: the ended task this one goes on from, on its last page, told its steps (agent/resumption.ts). */
  continues?: { of: Task; steps: ProgressStep[] } | undefined;
  /** What drives the task when no model of ours plans it (a client's calls, drivers/client.ts), made with the chat model its tools may ask. */
  driver?: ((chatModel: ChatModel) => Driver) | undefined;
}

export class Runtime {
  private readonly runs = new Map<string, TaskRun>();
  /** The tasks a worker holds that wait for the person since the worker before died. */
  private readonly waits = new Map<string, HeldWait>();
  private readonly busySessions = new Map<string, string>();
  /** The task driving each page of an attached browser: one at a time. */
  private readonly busyBrowsers = new Map<string, string>();
  private readonly finished = new Set<Promise<Task>>();
  private readonly queue: TaskQueue;
  /** Stop, "I've done it", a message, a decision, take over, hand back, their input: to a task here or in a worker. */
  readonly commands: TaskCommands;

  constructor(
    private readonly live: LiveConfig,
    private readonly recorder: RunRecorder,
    private readonly resources: TaskResources,
    private readonly log: Logger,
    private readonly dispatch: TaskDispatch | null = null,
  ) {
    this.queue = new TaskQueue(live.current.limits.maxConcurrentTasks);
    this.commands = new TaskCommands(live, this.runs, this.waits, recorder, dispatch);
  }

  /** As it is now: a task takes the model the person set last, and keeps it (core/live-config.ts). */
  private get config(): Config {
    return this.live.current;
  }

  /**
   * Records the task and starts it; resolves once it is queued, not when it ends. `done` resolves
   * with the task as it ended.
   */
  async submit(submission: Submission): Promise<{ task: Task; message: ChatMessage; done: Promise<Task> }> {
    const { sessionId } = submission;
    const now = nowIso();
    // A replay, retry or continuation drives what the earlier task drove, as it drove it.
    const like = submission.replay?.of ?? submission.retry ?? submission.continues?.of;
    const task: Task = {
      id: newId("task"),
      session_id: sessionId,
      text: submission.text,
      mode: like?.mode ?? submission.agentMode ?? this.config.agent.mode,
      computer: like?.computer ?? submission.computer ?? (submission.extensionClient ? "extension" : this.config.computer),
      extension_client_id: like ? like.extension_client_id : (submission.extensionClient ?? null),
      replay_of: submission.replay?.of.id ?? null,
      cdp: like ? like.cdp : this.cdpOf(submission),
      start_url: submission.startUrl ?? null,
      status: "queued",
      current_step_index: 0,
      live_frame: null,
      answer: null,
      approval: null,
      error: null,
      model: "",
      usage: { input_tokens: 0, output_tokens: 0 },
      cost_usd: 0,
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    if (task.cdp) task.computer = "browser";
    if (task.computer === "desktop" && task.start_url) {
      throw new AppError("INVALID_BODY", "start_url: a desktop has no address bar of its own; say in the task where to go.");
    }
    // A model without image input cannot use the hybrid tools (seed 001 §10.5), nor a desktop's, which has only its screen.
    const vision = chatTakesImages(this.config);
    if (task.computer === "desktop" && task.mode !== "actions" && !vision) {
      throw new AppError("INVALID_BODY", "mode: the desktop tools need a chat model that takes images (AGENT_VISION=true, and not one of DashScope's text-only models such as qwen-plus); without one, drive the desktop with a planner (mode actions).");
    }
    if (task.mode === "hybrid" && !vision) task.mode = "dom";
    const { continues } = submission;
    const continuation = continues ? continuationOf(continues.of, continues.steps) : null;
    const driver: Driver =
      submission.driver?.(this.resources.chatModel()) ??
      (submission.replay
        ? task.mode === "actions"
          ? new ActionReplayDriver(this.resources.chatModel(), submission.replay.steps)
          : new ReplayDriver(this.resources.chatModel(), submission.replay.steps)
        : task.mode === "actions"
          ? new PlannerDriver(this.resources.plannerFor(task, submission.model), this.resources.chatModel(), continuation ? [...recalledHistory(continues!.steps, false), continuation.note] : [])
          : new ToolDriver(this.resources.chatModel(), task.mode, continuation ? { steps: continues!.steps, note: continuation.note } : null));
    task.model = driver.label;
    const message: ChatMessage = submission.message
      ? { ...submission.message, task_id: task.id }
      : {
          id: newId("msg"),
          session_id: sessionId,
          task_id: task.id,
          role: "user",
          kind: "user_text",
          text: submission.replay ? RUN_AGAIN_TEXT : submission.retry ? RETRY_TEXT : continues ? CONTINUE_TEXT : submission.text,
          attachments: submission.attachments.map(({ name, mime_type }) => ({ name, mime_type })),
          created_at: now,
        };
    const cap = submission.maxSteps === undefined ? defaultStepCap(task.mode, this.config) : Math.min(submission.maxSteps, this.config.limits.maxSteps);
    // A message the chat already stored keeps its attachments; it is only linked to the task.
    const record = (release: () => void) =>
      this.recorder.createTask(task, message, submission.message ? [] : submission.attachments).catch((error: unknown) => {
        release();
        throw error;
      });
    const queued: QueuedTask = { taskId: task.id, maxSteps: cap, personWords: submission.personWords ?? null, model: submission.model ?? null, continues: continues?.of.id ?? null };
    // A task driven from this process (an MCP client's computer) or through an extension connected to
    // it runs here: a worker has neither.
    const here = !this.dispatch || submission.driver !== undefined || task.computer === "extension";
    const { done } = here ? await this.launch(task, driver, submission.attachments, cap, continuation, submission.personWords ?? null, record) : await this.enqueue(task, queued, record);
    return { task, message, done };
  }

  /**
   * Resumes a task that waited for the person when an earlier server process died (the store kept
   * it `awaiting_user`; agent/resumption.ts): a fresh driver of its mode — the planner with the
   * history of the steps so far, the tool agent with its recorded calls — is told the person's
   * answer, and the task goes on from the page it was on, looking again first. A replay is not
   * resumed: the store ends it as interrupted.
   */
  async resumeStored(task: Task, steps: ProgressStep[], answer: PersonAnswer): Promise<void> {
    if (task.replay_of) throw new AppError("TASK_FINISHED", `Task ${task.id} replayed another and cannot be resumed; run it again instead.`);
    await this.resume(task, steps, answer, { stopped: "The server restarted", maxSteps: defaultStepCap(task.mode, this.config), personWords: null, model: null, recorder: this.recorder });
  }

  /** A task that waited for the person goes on with their answer, on the page it was on. */
  private async resume(
    task: Task,
    steps: ProgressStep[],
    answer: PersonAnswer,
    how: { stopped: string; maxSteps: number; personWords: PersonWords | null; model: ModelChoice | null; recorder: RunRecorder },
  ): Promise<{ done: Promise<Task> }> {
    const resumption = resumptionOf(task, steps, answer, how.stopped);
    const driver: Driver =
      task.mode === "actions"
        ? new PlannerDriver(this.resources.plannerFor(task, how.model ?? undefined), this.resources.chatModel(), [...recalledHistory(steps, answer.kind === "ack"), resumption.note])
        : new ToolDriver(this.resources.chatModel(), task.mode, { steps, note: resumption.note });
    const attachments = await this.recorder.taskAttachments(task);
    return this.launch({ ...task, model: driver.label }, driver, attachments, how.maxSteps, resumption, how.personWords, async () => undefined, { recorder: how.recorder });
  }

  /**
   * A task that waited for the person when its worker died is held here still waiting
   * (agent/held-wait.ts): the person's answer resumes it, Stop ends it.
   */
  private async takeWaiting(job: QueuedTask, task: Task, steps: ProgressStep[], recorder: RunRecorder): Promise<Task | null> {
    const wait = new HeldWait(task);
    this.waits.set(task.id, wait);
    const end = await wait.ended.finally(() => this.waits.delete(task.id));
    if (end.kind === "stopped") return this.commands.stopStored(task, recorder, end.reason);
    if (end.kind === "released") return null;
    const how = { stopped: "The worker running the task stopped", maxSteps: job.maxSteps, personWords: job.personWords, model: job.model, recorder };
    const { done } = await this.resume(task, steps, end.answer, how);
    return done;
  }

  /**
   * A worker's slot runs a task `serve` queued: as submitted when it is new; when a worker that held
   * it died (it is not `queued` any more), from its last stored step, on that step's page, its driver
   * told the steps so far and that it was resumed. A replay taken up again ends interrupted: it would
   * have to find its place in the recording again. `before` is the ended task a Continue goes on from,
   * or the task a replay plays again, with their steps. `recorder` records it while this worker holds
   * it (store/task-leases.ts). Null: this worker let the task go still waiting for the person
   * (releaseWaiting), for another to take up.
   */
  async take(job: QueuedTask, task: Task, steps: ProgressStep[], before: { of: Task; steps: ProgressStep[] } | null, recorder: RunRecorder): Promise<Task | null> {
    const again = task.status !== "queued";
    if (again && task.replay_of) return this.interrupt(task, "interrupted: the worker running this replay stopped; run it again instead", recorder);
    if (task.status === "awaiting_user") return this.takeWaiting(job, task, steps, recorder);
    const resumption = again ? takenUpOf(task, steps) : before && !task.replay_of ? continuationOf(before.of, before.steps) : null;
    const history = again ? steps : (before?.steps ?? []);
    const driver: Driver = task.replay_of
      ? task.mode === "actions"
        ? new ActionReplayDriver(this.resources.chatModel(), before?.steps ?? [])
        : new ReplayDriver(this.resources.chatModel(), before?.steps ?? [])
      : task.mode === "actions"
        ? new PlannerDriver(this.resources.plannerFor(task, job.model ?? undefined), this.resources.chatModel(), resumption ? [...recalledHistory(history, false), resumption.note] : [])
        : new ToolDriver(this.resources.chatModel(), task.mode, resumption ? { steps: history, note: resumption.note } : null);
    const attachments = await this.recorder.taskAttachments(task);
    const { done } = await this.launch({ ...task, model: driver.label }, driver, attachments, job.maxSteps, resumption, job.personWords, async () => undefined, { announced: !again, recorder });
    return done;
  }

  /**
   * A task every worker that took it up stopped running (killed, frozen or cut off), as many times
   * as the queue tries one (worker/task-jobs.ts `whenLost`): it ends failed, unless it ended meanwhile.
   */
  async abandon(task: Task, tries: number): Promise<void> {
    if (isFinished(task.status)) return;
    const message = `interrupted: taken up ${tries} times, and each worker running it stopped (killed, frozen or cut off) before it ended; press Continue to go on from its last step`;
    await this.interrupt(task, message, this.recorder);
  }

  private async interrupt(task: Task, message: string, recorder: RunRecorder): Promise<Task> {
    const record = new TaskRecord(task, recorder);
    const error = { code: "INTERRUPTED", message };
    await record.update({ status: "failed", error, approval: null, answer: null, finished_at: nowIso() });
    await record.emit({ type: "task.failed", task_id: task.id, error });
    return record.current;
  }

  /**
   * Marks the session (and the attached page) busy, runs `record` (which must undo that on
   * failure with the release it is given), then queues the run; `done` resolves with its end.
   */
  private async launch(
    task: Task,
    driver: Driver,
    attachments: Attachment[],
    maxSteps: number,
    resume: Resumption | null,
    personWords: PersonWords | null,
    record: (release: () => void) => Promise<void>,
    /**
     * `announced`: a worker's new task, whose `task.started` `serve` said as it queued it;
     * `recorder`: what records the task, when not this process's own (a worker's hold on it).
     */
    { announced = false, recorder = this.recorder }: { announced?: boolean; recorder?: RunRecorder } = {},
  ): Promise<{ done: Promise<Task> }> {
    const sessionId = task.session_id;
    const active = this.busySessions.get(sessionId);
    if (active) throw new AppError("SESSION_BUSY", `Session ${sessionId} is already running task ${active}; stop it or wait for it.`);
    const page = task.cdp ? `${task.cdp.url}#${task.cdp.target_id ?? "first page"}` : null;
    const driving = page ? this.busyBrowsers.get(page) : undefined;
    if (driving) throw new AppError("BROWSER_BUSY", `Task ${driving} is driving that page of ${task.cdp!.url}; wait for it or pick another target.`);
    this.busySessions.set(sessionId, task.id);
    if (page) this.busyBrowsers.set(page, task.id);
    const release = () => {
      this.busySessions.delete(sessionId);
      if (page) this.busyBrowsers.delete(page);
    };
    await record(release);
    const log = this.log.child({ task_id: task.id, session_id: sessionId });
    const run = new TaskRun(task, attachments, recorder, this.resources, driver, this.config, log, maxSteps, resume, personWords);
    this.runs.set(task.id, run);
    // Seed 000 §3.2: `task.started` comes as soon as the message does, even for a task that waits
    // its turn (a resumed one is told `task.queued`); told in the same turn as it joins the queue,
    // so none can overtake it meanwhile.
    if (announced) run.announcedElsewhere();
    else if (this.queue.full) run.announceQueued();
    const done = this.queue
      .run(() => run.run(), run.signal)
      .catch((error: unknown) => {
        log.error({ err: error }, "task run crashed");
        return run.current;
      })
      .finally(() => {
        this.runs.delete(task.id);
        release();
        this.finished.delete(done);
      });
    this.finished.add(done);
    return { done };
  }

  /**
   * Marks the session busy as `launch` does, records the task and queues it for a worker; the
   * session is free again when the store says the task ended, wherever it ran.
   */
  private async enqueue(task: Task, job: QueuedTask, record: (release: () => void) => Promise<void>): Promise<{ done: Promise<Task> }> {
    const dispatch = this.dispatch!;
    const sessionId = task.session_id;
    const active = this.busySessions.get(sessionId);
    if (active) throw new AppError("SESSION_BUSY", `Session ${sessionId} is already running task ${active}; stop it or wait for it.`);
    this.busySessions.set(sessionId, task.id);
    const release = () => void this.busySessions.delete(sessionId);
    await record(release);
    // Seen at once, as a task waiting its turn in this process is; the worker goes on with `task.running`.
    await new TaskRecord(task, this.recorder).emit({ type: "task.started", task_id: task.id, task });
    await dispatch.enqueue(job).catch((error: unknown) => {
      release();
      throw error;
    });
    // Not among `finished`: shutting this process down does not wait for a worker's task.
    const done = dispatch.ended(task).finally(release);
    return { done };
  }

  /** The browser a task attaches to: one the configuration allows, recorded without its secrets. */
  private cdpOf(submission: Submission): Task["cdp"] {
    const requested = submission.cdp?.url;
    const url = requested === undefined ? configuredEndpoint(this.config) : allowedEndpoint(this.config, requested);
    if (requested !== undefined && !url) {
      throw new AppError("FORBIDDEN", `This server may not drive the browser at ${redactUrl(requested)}: add it to CDP_ALLOWED_URLS.`);
    }
    if (!url && submission.cdp?.targetId !== undefined) {
      throw new AppError("INVALID_BODY", "cdp_target_id: names a page of the browser that cdp_url (or CDP_URL) gives, and neither is set.");
    }
    if (!url) return null;
    const target = submission.cdp?.targetId ?? (requested === undefined ? this.config.browser.cdpTargetId : undefined);
    return { url: redactUrl(url), target_id: target ?? null };
  }

  /** The files a task was given, to give them again (Retry, Continue). */
  attachmentsOf(task: Task): Promise<Attachment[]> {
    return this.recorder.taskAttachments(task);
  }

  /** A deleted chat's sign-ins are not carried to anything. */
  forgetChat(sessionId: string): void {
    this.resources.forgetChat(sessionId);
  }

  /** The task a session is running, if any. */
  activeTask(sessionId: string): string | undefined {
    return this.busySessions.get(sessionId);
  }

  /**
   * Lets the tasks this worker holds waiting for the person go (or only `taskId`): it shuts down,
   * and they go back to the queue, or another worker holds the task now.
   */
  releaseWaiting(taskId?: string): void {
    for (const wait of this.waits.values()) if (taskId === undefined || wait.task.id === taskId) wait.release();
  }

  /**
   * Stops every task this worker runs and lets those it holds waiting go, without waiting for them:
   * a worker that gave up their leases first hands them back (their runs record nothing more, and
   * their jobs go back to the queue).
   */
  letGoAll(reason = "this worker is shutting down; another worker takes the task up"): void {
    for (const run of this.runs.values()) run.stop(reason);
    this.releaseWaiting();
  }

  /** Stops every task and waits until each has recorded how it ended. */
  async shutdown(reason = "the server is shutting down"): Promise<void> {
    this.letGoAll(reason);
    await Promise.all(this.finished);
  }
}
