// One task's life (seed 000 §3.3): START_TASK → RUN_LOOP ↔ AWAITING_USER → COMPLETED / FAILED /
// STOPPED. Observe → plan → act → capture, one step at a time, with one AbortSignal threaded
// through the planner, the computer and every wait, so Stop takes effect at once.
import type { Logger } from "pino";
import type { Computer, Risk, Screenshot } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { raceAbort } from "../core/abort.ts";
import { AppError, StopRequested, toTaskError } from "../core/errors.ts";
import { newId, nowIso } from "../core/ids.ts";
import { actionPoint, describeStep, isFinal, type AgentEvent, type Approval, type Attachment, type ChatMessage, type ProgressStep, type Task } from "../protocol/index.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import type { Planner, PlannerTurn } from "../models/planner.ts";
import type { ToolMode } from "../tools/index.ts";
import { convert } from "../perception/coordinates.ts";
import { scaleElements } from "../perception/elements.ts";
import { modelView } from "../perception/model-image.ts";
import { act, captureAfter, type Acted } from "./act.ts";
import { throttleFrames } from "./live-view.ts";
import type { RunRecorder, TaskResources } from "./ports.ts";
import { runReplay } from "./replay.ts";
import { couldNotHit, historyLine, type StepOutcome } from "./step-history.ts";
import { runToolLoop, type LoopOutcome } from "./tool-loop.ts";
import type { ToolStep } from "./tool-runner.ts";

export const ACK_TEXT = "I've done it";

/** What drives the task: a planner's screen actions, or the browser tool agent over a chat model. */
export type Driver =
  | { kind: "planner"; planner: Planner }
  | { kind: "tools"; model: ChatModel; mode: ToolMode }
  | { kind: "replay"; model: ChatModel; recording: ProgressStep[] };

type Outcome = LoopOutcome | { status: "stopped"; reason: string };

export class TaskRun {
  private readonly controller = new AbortController();
  private readonly history: string[] = [];
  private computer: Computer | null = null;
  private ackWaiter: ((text: string) => void) | null = null;
  private decisionWaiter: { approvalId: string; decide: (approved: boolean) => void } | null = null;
  private budgetMs: number;
  private budgetTimer: NodeJS.Timeout | null = null;
  private budgetSince = 0;
  private finishing = false;

  constructor(
    private task: Task,
    private readonly attachments: Attachment[],
    private readonly recorder: RunRecorder,
    private readonly resources: TaskResources,
    private readonly driver: Driver,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly maxSteps = config.limits.maxSteps,
  ) {
    this.budgetMs = config.limits.maxDurationMs;
  }

  /** The task as recorded so far. */
  get current(): Task {
    return this.task;
  }

  stop(reason = "stopped by the user"): void {
    this.controller.abort(new StopRequested(reason));
  }

  /** Resumes a task that waits for the person; false if it is not waiting. */
  acknowledge(text: string): boolean {
    if (!this.ackWaiter || this.controller.signal.aborted) return false;
    this.ackWaiter(text);
    this.ackWaiter = null;
    return true;
  }

  /** Decides a pending approval; false if there is none with this id. */
  decide(approvalId: string, approved: boolean): boolean {
    if (this.decisionWaiter?.approvalId !== approvalId || this.controller.signal.aborted) return false;
    this.decisionWaiter.decide(approved);
    this.decisionWaiter = null;
    return true;
  }

  /** Runs the task to its end and resolves with it as it ended. */
  async run(): Promise<Task> {
    const signal = this.controller.signal;
    let live: ReturnType<typeof throttleFrames> | null = null;
    let stopLive = () => {};
    let outcome: Outcome;
    try {
      await this.update({ status: "running" });
      await this.emit({ type: "task.started", task_id: this.task.id, task: this.task });
      this.startBudget();
      const computer = await this.open(signal);
      live = throttleFrames(this.config.browser.liveFps, (frame) => this.publishLive(frame));
      const liveFrames = live;
      stopLive = computer.onLiveFrame((frame) => liveFrames.push(frame));
      if (this.task.start_url) await raceAbort(computer.navigate(this.task.start_url), signal);
      const first = await raceAbort(computer.screenshot(), signal);
      liveFrames.push(first);
      outcome = await this.drive(computer, first, signal);
    } catch (error) {
      outcome = this.classify(error);
    }
    this.finishing = true;
    this.stopBudget();
    stopLive();
    live?.stop();
    // Close before the terminal event: once a client sees it, nothing more happens on screen.
    await this.computer?.close().catch(() => undefined);
    await this.finish(outcome);
    return this.task;
  }

  private drive(computer: Computer, first: Screenshot, signal: AbortSignal): Promise<Outcome> {
    const { driver } = this;
    if (driver.kind === "planner") return this.loop(driver.planner, computer, first, signal);
    const common = {
      computer,
      model: driver.model,
      config: this.config,
      firstShot: first,
      signal,
      saveArtifact: (text: string) => this.recorder.saveArtifact(this.task, text),
      record: (step: ToolStep) => this.recordToolStep(step),
      approve: (tool: { name: string; input: unknown }, risks: Risk[]) => this.approveTool(tool, risks, signal),
    };
    if (driver.kind === "replay") return runReplay({ ...common, recording: driver.recording });
    return runToolLoop({ ...common, goal: this.task.text, startUrl: this.task.start_url, attachments: this.attachments, mode: driver.mode, maxSteps: this.maxSteps });
  }

  private async loop(planner: Planner, computer: Computer, first: Screenshot, signal: AbortSignal): Promise<Outcome> {
    let shot = first;
    for (;;) {
      if (this.task.current_step_index >= this.maxSteps) {
        throw new AppError("STEP_LIMIT", `The task reached its limit of ${this.maxSteps} steps.`);
      }
      const url = await computer.currentUrl();
      const { model, browser } = this.config;
      const max = planner.imageSize?.(shot) ?? { width: model.imageMaxWidth, height: model.imageMaxHeight };
      const view = await modelView(shot, computer.logicalSize, max, browser.jpegQuality);
      const elements =
        planner.wantsElements && computer.elements
          ? scaleElements(await raceAbort(computer.elements(), signal), view.spaces.screenshot, view.spaces.model)
          : undefined;
      const turn = await planner.next(
        {
          task: this.task.text,
          attachments: this.attachments,
          step: this.task.current_step_index + 1,
          history: this.history.slice(-this.config.model.historySteps),
          screenshot: view.image,
          url,
          ...(elements ? { elements } : {}),
        },
        signal,
      );
      signal.throwIfAborted();
      const { action } = turn;
      if (turn.approval && !isFinal(action)) {
        const approved = await this.awaitApproval({ id: newId("appr"), checks: turn.approval.checks, action, tool: null }, signal);
        if (!approved) {
          const why = turn.approval.checks.map((c) => c.message || c.code).join("; ");
          return { status: "stopped", reason: `the person did not approve: ${why}` };
        }
        planner.acknowledge?.(turn.approval.checks);
      }
      const point = actionPoint(action);
      const aimed = point ? convert(point, view.spaces, "model", "screenshot") : null;
      if (isFinal(action)) {
        await this.recordStep(turn, shot, url, { at: aimed });
        if (action.type === "done") return { status: "completed", answer: action.args.answer };
        shot = await this.askUser(action.args.answer, computer, signal);
        continue;
      }
      let acted: Acted;
      try {
        acted = await act(action, view.spaces, shot, {
          computer,
          planner: planner,
          config: this.config,
          saveFrame: (image, options) => this.recorder.saveStepFrame(this.task, this.task.current_step_index + 1, image, options),
          signal,
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== "ACTION_FAILED") throw error;
        shot = await captureAfter(computer, signal);
        await this.recordStep(turn, shot, await computer.currentUrl(), { at: aimed, failure: error.message });
        continue;
      }
      if (acted.kind === "unverified") {
        const target = action.intent || turn.progress;
        await this.recordStep(turn, shot, url, { at: aimed, verification: acted.verification, usage: acted.usage, unverified: true });
        const looks = acted.verification.attempts.filter((a) => a.method === "model").length || acted.verification.attempts.length;
        shot = await this.askUser(couldNotHit(target, looks, this.config.locale), computer, signal);
        continue;
      }
      shot = acted.after;
      const { at, effect, verification, usage } = acted;
      await this.recordStep(turn, shot, await computer.currentUrl(), { at, effect, verification, usage });
    }
  }

  /** AWAITING_USER, then a fresh look at the screen the person has changed. */
  private async askUser(answer: string, computer: Computer, signal: AbortSignal): Promise<Screenshot> {
    const reply = await this.awaitUser(answer, signal);
    this.history.push(`The person was asked to act and answered: ${reply}`);
    return raceAbort(computer.screenshot(), signal);
  }

  private async open(signal: AbortSignal): Promise<Computer> {
    const opening = this.resources.openComputer(this.task);
    // If Stop comes while the browser starts, the computer arrives after the run has ended: close it.
    opening
      .then((computer) => {
        if (signal.aborted) void computer.close();
      })
      .catch(() => undefined);
    return (this.computer = await raceAbort(opening, signal));
  }

  private async recordStep(turn: PlannerTurn, shot: Screenshot, url: string | null, outcome: StepOutcome): Promise<void> {
    const usage = {
      input_tokens: turn.usage.input_tokens + (outcome.usage?.input_tokens ?? 0),
      output_tokens: turn.usage.output_tokens + (outcome.usage?.output_tokens ?? 0),
    };
    const note = outcome.failure ? `failed: ${outcome.failure}` : outcome.unverified ? "not clicked: the pointer could not be placed on it" : null;
    const step = await this.commitStep(shot, {
      text: note ? `${turn.progress} (${note})` : turn.progress,
      thought: turn.thought,
      action: turn.action,
      tool: null,
      cursor_x: outcome.at?.x ?? null,
      cursor_y: outcome.at?.y ?? null,
      url,
      effect: outcome.effect ?? null,
      verification: outcome.verification ?? null,
      planner: turn.planner,
      usage,
    });
    this.history.push(historyLine(step, turn.action, turn.progress, outcome));
  }

  private async recordToolStep(step: ToolStep): Promise<void> {
    await this.commitStep(step.shot, {
      text: step.text,
      thought: step.thought,
      action: step.action,
      tool: step.tool,
      cursor_x: step.at?.x ?? null,
      cursor_y: step.at?.y ?? null,
      url: step.url,
      effect: null,
      verification: null,
      planner: this.task.model,
      usage: step.usage,
    });
  }

  /** Saves the step's screenshot and the step, adds its tokens to the task's, and emits it. */
  private async commitStep(shot: Screenshot, fields: Omit<ProgressStep, "id" | "task_id" | "index" | "screenshot" | "created_at">): Promise<ProgressStep> {
    const index = this.task.current_step_index + 1;
    const frame = await this.recorder.saveStepFrame(this.task, index, shot);
    const step: ProgressStep = { id: newId("step"), task_id: this.task.id, index, screenshot: frame, created_at: nowIso(), ...fields };
    await this.recorder.saveStep(step);
    const { usage } = step;
    const total = {
      input_tokens: this.task.usage.input_tokens + usage.input_tokens,
      output_tokens: this.task.usage.output_tokens + usage.output_tokens,
    };
    await this.update({ current_step_index: index, usage: total });
    await this.emit({ type: "progress.append", task_id: this.task.id, step });
    return step;
  }

  private async awaitUser(answer: string, signal: AbortSignal): Promise<string> {
    this.stopBudget();
    await this.update({ status: "awaiting_user", answer });
    await this.addAnswer(answer);
    await this.emit({ type: "task.awaiting_user", task_id: this.task.id, answer, show_ack_button: true });
    const reply = await raceAbort(new Promise<string>((resolve) => (this.ackWaiter = resolve)), signal);
    await this.recorder.addMessage(this.message("user", "user_text", reply));
    await this.update({ status: "running", answer: null });
    await this.emit({ type: "task.resumed", task_id: this.task.id });
    this.startBudget();
    return reply;
  }

  /** AWAITING_USER for a flagged action: the person approves it or refuses it. */
  /** `goesOnWhenDenied`: a refusal is an answer the agent continues from (the tool agent), not the end of the task. */
  private async awaitApproval(approval: Approval, signal: AbortSignal, goesOnWhenDenied = false): Promise<boolean> {
    this.stopBudget();
    const why = approval.checks.map((c) => c.message || c.code).join("\n");
    await this.update({ status: "awaiting_user", approval, answer: why });
    await this.emit({ type: "task.approval_requested", task_id: this.task.id, approval });
    const approved = await raceAbort(
      new Promise<boolean>((decide) => (this.decisionWaiter = { approvalId: approval.id, decide })),
      signal,
    );
    await this.update({ status: "running", approval: null, answer: null });
    if (approved || goesOnWhenDenied) {
      await this.emit({ type: "task.resumed", task_id: this.task.id });
      this.startBudget();
    }
    return approved;
  }

  /** A risky tool call (seed 001 §3.3) waits for the person; each risk is one check they read. */
  private approveTool(tool: { name: string; input: unknown }, risks: Risk[], signal: AbortSignal): Promise<boolean> {
    const what = describeStep({ action: null, tool });
    const checks = risks.map((risk, i) => ({ id: `risk_${i + 1}`, code: risk.kind, message: `${what} ${risk.message}.` }));
    return this.awaitApproval({ id: newId("appr"), checks, action: null, tool }, signal, true);
  }

  private classify(error: unknown): Outcome {
    const reason: unknown = this.controller.signal.reason;
    if (this.controller.signal.aborted && reason instanceof StopRequested) {
      return { status: "stopped", reason: reason.reason };
    }
    const cause = this.controller.signal.aborted ? reason : error;
    const { code, message } = toTaskError(cause);
    if (code === "INTERNAL") this.log.error({ err: cause }, "task failed unexpectedly");
    return { status: "failed", code, message };
  }

  private async finish(outcome: Outcome): Promise<void> {
    const finished_at = nowIso();
    const id = this.task.id;
    switch (outcome.status) {
      case "completed":
        await this.update({ status: "completed", answer: outcome.answer, finished_at });
        await this.addAnswer(outcome.answer);
        await this.emit({ type: "task.completed", task_id: id, answer: outcome.answer });
        break;
      case "failed": {
        const error = { code: outcome.code, message: outcome.message };
        await this.update({ status: "failed", error, finished_at });
        await this.emit({ type: "task.failed", task_id: id, error });
        break;
      }
      case "stopped":
        await this.update({ status: "stopped", finished_at });
        await this.emit({ type: "task.stopped", task_id: id, reason: outcome.reason });
        break;
    }
    this.log.info({ status: outcome.status, steps: this.task.current_step_index }, "task finished");
  }

  /** The live view is a side channel: a frame that cannot be saved is logged, not fatal. */
  private async publishLive(frame: Screenshot): Promise<void> {
    if (this.finishing) return;
    try {
      const ref = await this.recorder.saveLiveFrame(this.task, frame);
      const url = (await this.computer?.currentUrl()) ?? null;
      // The terminal event is the last one a task emits; a frame that arrives later is dropped.
      if (this.finishing) return;
      const emitted = this.emit({ type: "screen.live", task_id: this.task.id, frame: ref, url });
      await this.update({ live_frame: ref });
      await emitted;
    } catch (error) {
      this.log.warn({ err: error }, "could not publish a live frame");
    }
  }

  private startBudget(): void {
    this.budgetSince = Date.now();
    this.budgetTimer = setTimeout(() => {
      const limit = formatDuration(this.config.limits.maxDurationMs);
      this.controller.abort(new AppError("TIME_LIMIT", `The task reached its time limit of ${limit}.`));
    }, this.budgetMs);
  }

  private stopBudget(): void {
    if (!this.budgetTimer) return;
    clearTimeout(this.budgetTimer);
    this.budgetTimer = null;
    this.budgetMs -= Date.now() - this.budgetSince;
  }

  private addAnswer(text: string): Promise<void> {
    return this.recorder.addMessage(this.message("assistant", "assistant_answer", text));
  }

  private message(role: ChatMessage["role"], kind: ChatMessage["kind"], text: string): ChatMessage {
    return {
      id: newId("msg"),
      session_id: this.task.session_id,
      task_id: this.task.id,
      role,
      kind,
      text,
      attachments: [],
      created_at: nowIso(),
    };
  }

  private async update(patch: Partial<Task>): Promise<void> {
    this.task = { ...this.task, ...patch, updated_at: nowIso() };
    await this.recorder.saveTask(this.task);
  }

  private emit(event: AgentEvent): Promise<void> {
    return this.recorder.emit(this.task.session_id, event);
  }
}

function formatDuration(ms: number): string {
  return ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} minutes` : `${+(ms / 1000).toFixed(1)} seconds`;
}
