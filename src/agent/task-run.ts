// One task's life (seed 000 §3.3): START_TASK → RUN_LOOP ↔ AWAITING_USER / TAKEOVER → COMPLETED /
// FAILED / STOPPED. The run opens the computer, shows the live view, takes the first look, hands the rest
// to its driver, and records how the task ended. One AbortSignal is threaded through the driver,
// the computer and every wait, so Stop takes effect at once.
import type { Logger } from "pino";
import type { Computer } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { raceAbort } from "../core/abort.ts";
import { AppError, StopRequested, toTaskError } from "../core/errors.ts";
import { plainPasswords, taskOrigins, type PersonWords } from "../core/approval-policy.ts";
import { Secrets } from "../core/secrets.ts";
import { newId, nowIso } from "../core/ids.ts";
import { PhaseClock } from "../core/phase-clock.ts";
import { redact, secretsOf } from "../core/redact.ts";
import { Progress } from "../core/progress.ts";
import { Hands } from "../hands/hands.ts";
import { readAttachments } from "../models/attachments.ts";
import { watchRetries } from "../models/retry-watch.ts";
import type { Attachment, FrameRef, PersonInput, Task } from "../protocol/index.ts";
import { ActivityReporter } from "./activity.ts";
import { Budget } from "./budget.ts";
import type { Driver, Outcome } from "./driver.ts";
import { FileKeeper } from "./file-keeper.ts";
import { FollowUps } from "./follow-ups.ts";
import { LiveView } from "./live-view.ts";
import { PersonGate } from "./person-gate.ts";
import type { RunRecorder, TaskResources } from "./ports.ts";
import type { PersonAnswer, Resumption } from "./resumption.ts";
import { priceTable } from "../models/prices.ts";
import { StepRecorder } from "./step-recorder.ts";
import { TaskRecord } from "./task-record.ts";
import { UploadFiles } from "./upload-files.ts";

/** What the person's "I've done it" says, in the configured language, when it comes without words (seed 000 §7.1: “我已经操作”). */
export function ackText(locale: Config["locale"]): string {
  return locale === "zh" ? "我已经操作" : "I've done it";
}

/**
 * How long a task that ends waits for files still arriving before its computer closes (which
 * cancels them): long enough for a document, not for a task stopped to hang on a slow download.
 */
const FILES_WAIT_MS = 30_000;
/** How long Stop's reply waits for the action under way to stop: one stuck in a page that does not answer is not waited for. */
const STOP_WAIT_MS = 2_000;

export class TaskRun {
  private readonly controller = new AbortController();
  private readonly record: TaskRecord;
  private readonly budget: Budget;
  private readonly gate: PersonGate;
  private readonly followUps: FollowUps;
  private computer: Computer | null = null;
  private hands: Hands | null = null;
  private finishing = false;
  /** The task was told it waits its turn (`task.started` queued, or `task.queued` after a restart). */
  private announcedQueued = false;

  constructor(
    task: Task,
    private readonly attachments: Attachment[],
    private readonly recorder: RunRecorder,
    private readonly resources: TaskResources,
    private readonly driver: Driver,
    private readonly config: Config,
    private readonly log: Logger,
    maxSteps = config.limits.maxSteps,
    private readonly resumption: Resumption | null = null,
    /** What the person wrote, when the chat assistant worded the task: the origins only the assistant chose are asked about. */
    private readonly personWords: PersonWords | null = null,
  ) {
    this.record = new TaskRecord(task, recorder);
    this.budget = new Budget({ maxDurationMs: config.limits.maxDurationMs, maxSteps }, (error) => this.controller.abort(error));
    this.gate = new PersonGate(this.record, this.budget, this.controller.signal);
    this.followUps = new FollowUps(this.record, log);
  }

  /** The task as recorded so far. */
  get current(): Task {
    return this.record.current;
  }

  /** Aborts on Stop and at the time limit. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(reason = "stopped by the user"): void {
    this.controller.abort(new StopRequested(reason));
  }

  /**
   * Resolves once the action that was under way when the task was stopped has stopped where it
   * acted (its next keystroke, its next step), or after STOP_WAIT_MS for one stuck in a page
   * that does not answer: Stop's reply comes when nothing more of the task lands on the screen.
   */
  async stopped(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
    await Promise.race([this.hands?.idle(), cap]);
    clearTimeout(timer);
  }

  /** Resumes a task that waits for the person; false if it is not waiting. */
  acknowledge(text: string): boolean {
    return this.gate.acknowledge(text);
  }

  /**
   * The person's message to the task while it is under way: the answer it waits for, if it asked
   * them to act, else a follow-up its agent reads at its next step. Null once the task is ending.
   */
  async tell(text: string): Promise<{ messageId: string; answered: boolean } | null> {
    if (this.finishing || this.controller.signal.aborted) return null;
    if (this.record.current.replay_of) {
      throw new AppError("FOLLOW_UP_REFUSED", `Task ${this.record.current.id} runs its recording again and takes no new instructions; stop it first.`);
    }
    const messageId = newId("msg");
    if (this.gate.acknowledge(text, messageId)) return { messageId, answered: true };
    await this.followUps.add(text, messageId);
    return { messageId, answered: false };
  }

  /** Decides a pending approval; false if there is none with this id. */
  decide(approvalId: string, approved: boolean): boolean {
    return this.gate.decide(approvalId, approved);
  }

  /** The person asks for the screen; false when the task is not running. */
  takeOver(): boolean {
    return this.gate.takeOver();
  }

  /** The person hands the screen back; false when they did not have it. */
  handBack(): boolean {
    return this.gate.handBack();
  }

  /** The person's input on the live view; false when the screen is not theirs now. */
  async personInput(input: PersonInput): Promise<boolean> {
    const { hands } = this;
    if (!hands || !this.gate.personHasScreen) return false;
    await hands.personAct(input, this.record.current.live_frame);
    return true;
  }

  /**
   * Tells the task's clients it waits for a place to run: a new task by `task.started`, `queued`;
   * one resumed after a restart by the person's answer and `task.queued`, so its question leaves the
   * chat. The events are written in turn with the task's others (they come before `task.running`
   * or `task.resumed`); a failure to store them is logged, and the task runs anyway.
   */
  announceQueued(): void {
    this.announcedQueued = true;
    const { record } = this;
    const id = record.current.id;
    const answer = this.resumption?.answer;
    const told = answer
      ? // The stored task keeps its question until it runs: a process that dies meanwhile asks it again.
        Promise.all([this.recordAnswer(answer), record.update({ status: "queued" }), record.emit({ type: "task.queued", task_id: id })])
      : record.emit({ type: "task.started", task_id: id, task: record.current });
    told.catch((error: unknown) => this.log.warn({ err: error }, "could not tell that the task is queued"));
  }

  /** The task's clients were told it is queued by the process that queued it (`serve`, for a worker): it begins with `task.running`. */
  announcedElsewhere(): void {
    this.announcedQueued = true;
  }

  /** Runs the task to its end and resolves with it as it ended. */
  async run(): Promise<Task> {
    const signal = this.controller.signal;
    const { record } = this;
    let live: LiveView | null = null;
    let outcome: Outcome;
    let steps: StepRecorder | null = null;
    let reporter: ActivityReporter | null = null;
    let uploads: UploadFiles | null = null;
    let files: FileKeeper | null = null;
    try {
      await this.begin();
      if (this.resumption) this.followUps.recall(await this.recorder.taskFollowUps(this.resumption.from));
      this.budget.startClock();
      const computer = await this.open(signal);
      const liveView = (live = new LiveView({ computer, record, fps: this.config.browser.liveFps, publish: (frame) => this.publishLive(frame), log: this.log }));
      const secrets = new Secrets(this.config.secrets);
      const activity = (reporter = new ActivityReporter(record.current.id, (event) => {
        record.emit(event).catch((error: unknown) => this.log.warn({ err: error }, "could not send the task's activity"));
      }));
      const clock = new PhaseClock((phase) => activity.phase(phase));
      const stepRecorder = (steps = new StepRecorder(record, secrets, clock, priceTable(this.config.prices), (shot) => {
        activity.stepMade();
        liveView.seen(shot);
      }));
      const keeper = (files = new FileKeeper(computer, record, () => stepRecorder.count + 1, this.config.downloads.maxBytes, this.log));
      const { named, proposed } = taskOrigins(record.current, this.personWords);
      const toUpload = (uploads = UploadFiles.forTask(this.config.dataDir, record.current.id, this.attachments));
      // One progress for the task: its Stop and its steps' phases, for the driver and the hands alike.
      const progress = Progress.of(signal, clock);
      const hands = (this.hands = new Hands({
        computer,
        config: this.config,
        progress,
        saveFrame: (shot, options) => stepRecorder.saveFrame(shot, options),
        trusted: named,
        proposed,
        personText: () => this.personSaid(),
        passwords: plainPasswords(`${record.current.text}\n${this.personWords?.text ?? ""}`),
        beforeActing: () => this.stillHeld(),
        ask: async (request) => this.gate.approveAction(request, await stepRecorder.saveFrame(request.shot, { approval: true })),
        uploadFile: (name) => toUpload.file(name),
      }));
      liveView.begin(await hands.start(this.resumption ? this.resumption.url : record.current.start_url));
      const attached = await readAttachments(this.attachments, this.config.model.attachmentsKb * 1024);
      const driven = await watchRetries((notice) => activity.retry(notice), () => this.driver.drive({
        task: () => record.current,
        attachments: this.attachments,
        attached,
        computer,
        hands,
        config: this.config,
        secrets,
        progress,
        budget: this.budget,
        gate: this.gate,
        followUps: this.followUps,
        steps: stepRecorder,
        files: keeper,
        saveArtifact: (text) => this.recorder.saveArtifact(record.current, text),
        readArtifact: (id) => this.recorder.readArtifact(record.current, id),
      }));
      // Every step is stored before the task ends; one that could not be ends it failed.
      await stepRecorder.flush();
      outcome = driven;
    } catch (error) {
      outcome = this.classify(error);
    }
    // A file still arriving is kept before the computer closes, and told before the task's end;
    // a task stopped (or out of time) ends at once, and what was still arriving is cancelled.
    await files?.close(signal.aborted ? 0 : FILES_WAIT_MS);
    this.finishing = true;
    reporter?.stop();
    this.budget.pauseClock();
    // Its last frame is stored before the task's row, which names it, is written for its end.
    await live?.close();
    // Close before the terminal event: once a client sees it, nothing more happens on screen.
    await this.computer?.close().catch(() => undefined);
    await uploads?.remove().catch((error: unknown) => this.log.warn({ err: error }, "could not remove the task's upload files"));
    await this.finish(outcome);
    // A task stopped or failed for another reason may not have got to the step it could not store.
    if (steps?.lost && !(outcome.status === "failed" && outcome.code === "STORAGE_FAILED")) {
      this.log.error({ err: steps.lost }, "a step of the task could not be stored");
    }
    return record.current;
  }

  /**
   * `task.started`; for a task announced while queued `task.running`, or `task.resumed` if it was
   * resumed after a restart (nothing for one stopped while queued); for a task resumed after a
   * restart that had a place at once, the person's answer and `task.resumed`.
   */
  private async begin(): Promise<void> {
    const { record } = this;
    const id = record.current.id;
    const answer = this.resumption?.answer;
    if (this.announcedQueued) {
      if (this.controller.signal.aborted) return;
      await record.update({ status: "running", approval: null, answer: null });
      await record.emit(answer ? { type: "task.resumed", task_id: id } : { type: "task.running", task_id: id });
      return;
    }
    if (!answer) {
      await record.update({ status: "running" });
      // The same task taken up again by another worker started already: it resumes.
      const takenUp = this.resumption?.from === id;
      await record.emit(takenUp ? { type: "task.resumed", task_id: id } : { type: "task.started", task_id: id, task: record.current });
      return;
    }
    await this.recordAnswer(answer);
    await record.update({ status: "running", approval: null, answer: null });
    await record.emit({ type: "task.resumed", task_id: id });
  }

  /** The answer a task resumed after a restart was given: the person's reply in the chat, or their decision. */
  private recordAnswer(answer: PersonAnswer): Promise<void> {
    const { record } = this;
    if (answer.kind === "ack") return record.addMessage("user", answer.text, answer.messageId);
    return record.emit({ type: "approval.resolved", task_id: record.current.id, approval_id: answer.approvalId, approved: answer.approved });
  }

  private async open(signal: AbortSignal): Promise<Computer> {
    // A task stopped before it had a place (or while it began) opens nothing.
    signal.throwIfAborted();
    const opening = this.resources.openComputer(this.record.current, signal, this.recorder);
    // If Stop comes while the browser starts, the computer arrives after the run has ended: close it.
    opening
      .then((computer) => {
        if (signal.aborted) void computer.close();
      })
      .catch(() => undefined);
    const computer = (this.computer = await raceAbort(opening, signal));
    if (computer.handOver) this.gate.handOver = (to) => computer.handOver!(to);
    return computer;
  }

  private classify(error: unknown): Outcome {
    const reason: unknown = this.controller.signal.reason;
    if (this.controller.signal.aborted && reason instanceof StopRequested) {
      return { status: "stopped", reason: reason.reason };
    }
    // The computer's own stop: a desktop's fail-safe corner.
    if (error instanceof StopRequested) return { status: "stopped", reason: error.reason };
    const cause = this.controller.signal.aborted ? reason : error;
    const { code, message } = toTaskError(cause);
    if (code === "INTERNAL") this.log.error({ err: cause }, "task failed unexpectedly");
    // What is recorded and shown never holds a key or a URL's credentials.
    return { status: "failed", code, message: redact(message, secretsOf(this.config)) };
  }

  /** Records how the task ended; only a completed one keeps an answer (a question it asked is not one). */
  private async finish(outcome: Outcome): Promise<void> {
    const { record } = this;
    const finished_at = nowIso();
    const id = record.current.id;
    switch (outcome.status) {
      case "completed":
        await record.update({ status: "completed", answer: outcome.answer, finished_at });
        await record.addMessage("assistant", outcome.answer);
        await record.emit({ type: "task.completed", task_id: id, answer: outcome.answer });
        break;
      case "failed": {
        const error = { code: outcome.code, message: outcome.message };
        await record.update({ status: "failed", error, approval: null, answer: null, finished_at });
        await record.emit({ type: "task.failed", task_id: id, error });
        break;
      }
      case "stopped":
        await record.update({ status: "stopped", approval: null, answer: null, finished_at });
        await record.emit({ type: "task.stopped", task_id: id, reason: outcome.reason });
        break;
    }
    this.log.info({ status: outcome.status, steps: record.current.current_step_index }, "task finished");
  }

  /**
   * What the person wrote for the task: its text and start page (or, when the chat assistant worded
   * it, their own message and start page), and what they added while it ran.
   */
  private personSaid(): string {
    const { text, start_url } = this.record.current;
    const own = this.personWords ? [this.personWords.text, this.personWords.startUrl ?? ""] : [text, start_url ?? ""];
    return [...own, ...this.followUps.told].join("\n");
  }

  /** Stops the task, with nothing more done or recorded, once another worker took it up (store/task-leases.ts). */
  private async stillHeld(): Promise<void> {
    if (!(await this.recorder.holds())) this.controller.abort(new StopRequested("another worker took the task up"));
    this.controller.signal.throwIfAborted();
  }

  /** The live view is a side channel: a frame that cannot be sent is logged, not fatal. */
  private async publishLive(frame: FrameRef): Promise<void> {
    if (this.finishing) return;
    const { record, computer } = this;
    try {
      const [url, focused] = await Promise.all([computer?.currentUrl() ?? null, computer?.activeWindow?.() ?? null]);
      const window = focused ? `${focused.title} — ${focused.app}` : null;
      // The terminal event is the last one a task emits; a frame that arrives later is dropped.
      if (this.finishing) return;
      await record.emit({ type: "screen.live", task_id: record.current.id, frame, url, window });
    } catch (error) {
      this.log.warn({ err: error }, "could not publish a live frame");
    }
  }
}
