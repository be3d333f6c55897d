// The assistant's run card for one task. While the task runs: progress header, timeline,
// screen window and scrubber, kept in sync through one selected position; the screen window's
// Take over gives the person the screen (seed 004 §2) until they press Resume. Once it completes,
// waits for the person, fails or stops: the answer card, with the steps still open to replay — and
// a task waiting for the person to act opens its live screen for them to act on.
// Its only state is local UI state; everything it shows comes from the run it is given.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from "react";
import { useBringIntoView } from "../hooks/useBringIntoView.ts";
import { useInputQueue } from "../hooks/useInputQueue.ts";
import { t } from "../i18n.ts";
import type { PersonInputBody, TaskStatus } from "../protocol.ts";
import { positionFromValue, screenView, scrubberValue, type Position, type Shot } from "../state/run-view.ts";
import { isActive, type RunState } from "../state/session-state.ts";
import { AnswerCard, TakeUpActions, type Ending } from "./AnswerCard.tsx";
import { FileList } from "./FileList.tsx";
import { ApprovalFromPage, ApprovalShot } from "./ApprovalShot.tsx";
import { ErrorReason, shownError, type ShownError } from "./ErrorNotice.tsx";
import { FocusView } from "./FocusView.tsx";
import { focusPrompt } from "./PromptInput.tsx";
import { Chevron, ProgressHeader } from "./ProgressHeader.tsx";
import { ScreenWindow } from "./ScreenWindow.tsx";
import { Scrubber } from "./Scrubber.tsx";
import { StepChecks, StepCost } from "./StepChecks.tsx";
import { ToolCall } from "./ToolCall.tsx";
import { Timeline } from "./Timeline.tsx";
import { PRIMARY, SECONDARY, SMALL_PRIMARY, SMALL_SECONDARY } from "./buttons.ts";

export interface RunCardProps {
  run: RunState;
  onStop: (taskId: string) => Promise<void>;
  onAck: (taskId: string, text: string) => Promise<void>;
  onDecide: (taskId: string, approvalId: string, approved: boolean) => Promise<void>;
  /** Replays a completed tool-agent task from its recording. */
  onRunAgain: (taskId: string) => Promise<void>;
  /** Runs a failed or stopped task's text again, as a new task. */
  onRetry: (taskId: string) => Promise<void>;
  /** Goes on from where a failed or stopped task ended, as a new task with more steps. */
  onContinue: (taskId: string) => Promise<void>;
  onTakeOver: (taskId: string) => Promise<void>;
  onResume: (taskId: string) => Promise<void>;
  /** The person's click, wheel, key or text on the screen while it is theirs. */
  onInput: (taskId: string, input: PersonInputBody) => Promise<void>;
  /** The assistant's reply below the card answers from this task's result: the card folds its answer. */
  repliedBelow?: boolean;
}

type Pending = "stop" | "ack" | "decide" | "again" | "retry" | "continue" | "takeover" | "resume";

export function RunCard({ run, onStop, onAck, onDecide, onRunAgain, onRetry, onContinue, onTakeOver, onResume, onInput, repliedBelow = false }: RunCardProps) {
  const { task, steps } = run;
  const timelineId = useId();
  const replayId = useId();
  const [position, setPosition] = useState<Position>("live");
  const [expanded, setExpanded] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  // A run that ends while the person is in its player (scrubbing, reading the timeline) keeps the
  // player where it is, with the answer under it, rather than collapsing under their cursor.
  const [keepPlayer, setKeepPlayer] = useState(false);
  const [focused, setFocused] = useState(false);
  const card = useRef<HTMLElement>(null);
  useBringIntoView(card, task.status, task.approval?.id ?? null);
  const playerBox = useRef<HTMLDivElement>(null);
  const pressingInPlayer = useRef(false);
  const headerToggle = useRef<HTMLButtonElement>(null);
  // Where focus goes once the status change has removed the control that had it.
  const refocus = useRef<"prompt" | "header" | "card" | null>(null);
  // A request is pending until it fails or the task's status moves on.
  const [seenStatus, setSeenStatus] = useState<TaskStatus>(task.status);
  if (seenStatus !== task.status) {
    setSeenStatus(task.status);
    setPending(null);
    // The person works on the screen as it is now, not on an earlier step's.
    if (task.status === "takeover") setPosition("live");
    // A request for the person is answered on the card, which comes into view.
    if (task.status === "awaiting_user") setFocused(false);
    // Read before the new status is committed, while the old controls still hold focus.
    const focused = typeof document === "undefined" ? null : document.activeElement;
    const inPlayer = pressingInPlayer.current || Boolean(playerBox.current?.contains(focused));
    const looking = steps.length > 0 && (expanded || position !== "live" || inPlayer);
    if (!isEnding(seenStatus) && !isActive(task.status) && looking) setKeepPlayer(true);
    // After Stop the chat is free for the next message; after I've done it the card runs again.
    refocus.current = pending === "stop" ? "prompt" : pending === "ack" ? "header" : card.current?.contains(focused) ? "card" : null;
  }
  useEffect(() => {
    const target = refocus.current;
    refocus.current = null;
    const active = document.activeElement;
    if (!target || (active && active !== document.body && active.isConnected)) return;
    if (target === "prompt" && focusPrompt()) return;
    const header = target !== "card" ? headerToggle.current : null;
    if (header) header.focus();
    else card.current?.focus();
  }, [task.status]);

  const perform = (action: Pending, call: () => Promise<void>) => {
    setPending(action);
    setError(null);
    call().catch((failure: unknown) => {
      setPending(null);
      setError(shownError(failure));
    });
  };
  const stop = () => perform("stop", () => onStop(task.id));
  const ack = () => perform("ack", () => onAck(task.id, t.ack));
  const decide = (approved: boolean) => task.approval && perform("decide", () => onDecide(task.id, task.approval!.id, approved));
  // The new run gets a card of its own; this one's status does not move, so pending ends with the request.
  const runAgain = () => perform("again", () => onRunAgain(task.id).then(() => setPending(null)));
  const replayable = task.status === "completed" && task.mode !== "actions";
  // Likewise for Retry and Continue: each starts a new task with a card of its own.
  const retry = () => perform("retry", () => onRetry(task.id).then(() => setPending(null)));
  const continueTask = () => perform("continue", () => onContinue(task.id).then(() => setPending(null)));
  const takeOver = () => perform("takeover", () => onTakeOver(task.id));
  const resume = () => perform("resume", () => onResume(task.id));
  const sendInput = useInputQueue(
    (input) => onInput(task.id, input),
    (failure) => setError(shownError(failure)),
  );
  const waitsForAct = task.status === "awaiting_user" && task.approval === null;
  const screenActions =
    task.status === "running" ? (
      <button type="button" onClick={takeOver} disabled={pending !== null} className={SMALL_SECONDARY}>
        {pending === "takeover" ? t.takingOver : t.takeOver}
      </button>
    ) : null;
  // Under the screen, where the person works: the screen is too tall for its title bar to stay in view.
  const handBack =
    task.status === "takeover" ? (
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-zinc-600">{t.resumeHint}</p>
        <button type="button" onClick={resume} disabled={pending !== null} className={PRIMARY}>
          {t.resume}
        </button>
      </div>
    ) : null;

  const ending = endingOf(run, repliedBelow);
  const finished = ending !== null && ending.kind !== "awaiting_user";
  const endActions = replayable ? (
    <button type="button" onClick={runAgain} disabled={pending !== null} className={SECONDARY}>
      {t.runAgain}
    </button>
  ) : ending?.kind === "failed" || ending?.kind === "stopped" ? (
    <TakeUpActions onRetry={retry} onContinue={continueTask} pending={pending === "retry" || pending === "continue" ? pending : pending === null ? null : "other"} />
  ) : null;
  const keptOpen = finished && keepPlayer;
  const player = (showTimeline: boolean, focus = false) => (
    <Player
      focus={focus}
      onEnlarge={focus ? undefined : () => setFocused(true)}
      box={playerBox}
      onPressing={(pressing) => (pressingInPlayer.current = pressing)}
      run={run}
      position={position}
      onPosition={setPosition}
      showTimeline={showTimeline}
      timelineId={timelineId}
      finished={finished}
      actions={screenActions}
      control={task.status === "takeover" ? sendInput : undefined}
      below={handBack}
    />
  );

  return (
    <article
      data-testid="run-card"
      data-status={task.status}
      aria-label={task.text}
      ref={card}
      tabIndex={-1}
      className="overflow-clip rounded-2xl border border-zinc-200 bg-white shadow-sm focus:outline-none"
    >
      {ending === null || keptOpen ? (
        <>
          <ProgressHeader
            status={task.status}
            latest={steps.at(-1)?.text ?? null}
            activity={run.activity}
            expanded={expanded}
            onToggle={() => setExpanded(!expanded)}
            timelineId={timelineId}
            onStop={ending === null ? stop : undefined}
            stopping={pending === "stop"}
            toggleRef={headerToggle}
          />
          {/* Above the player: with the chat held at its bottom, what is added above does not move the player. */}
          {ending !== null && (
            <div className="border-t border-zinc-100">
              <AnswerCard ending={ending} actions={endActions} />
            </div>
          )}
          <div className="border-t border-zinc-100 px-2 pt-2 pb-3 sm:px-3">{player(expanded)}</div>
        </>
      ) : (
        <>
          <AnswerCard
            ending={ending}
            detail={
              ending.kind === "awaiting_user" &&
              (task.approval ? (
                <>
                  <ApprovalFromPage approval={task.approval} />
                  <ApprovalShot approval={task.approval} />
                </>
              ) : (
                waitsForAct && <PersonScreen run={run} control={sendInput} onEnlarge={() => setFocused(true)} />
              ))
            }
            actions={
              endActions ?? (
              ending.kind === "awaiting_user" &&
              (task.approval ? (
                <>
                  <button
                    type="button"
                    onClick={() => decide(true)}
                    disabled={pending !== null}
                    className={PRIMARY}
                  >
                    {t.approve}
                  </button>
                  <button
                    type="button"
                    onClick={() => decide(false)}
                    disabled={pending !== null}
                    className={SECONDARY}
                  >
                    {t.deny}
                  </button>
                </>
              ) : (
                <>
                  <button
                    type="button"
                    onClick={ack}
                    disabled={pending !== null}
                    className={PRIMARY}
                  >
                    {t.ack}
                  </button>
                  <button
                    type="button"
                    onClick={stop}
                    disabled={pending !== null}
                    aria-label={t.stopTask}
                    className={SECONDARY}
                  >
                    {t.stop}
                  </button>
                </>
              )))
            }
          />
          {steps.length > 0 && (
            <div className="border-t border-zinc-100">
              <button
                type="button"
                onClick={() => {
                  setPosition("live");
                  setReplaying(!replaying);
                }}
                aria-expanded={replaying}
                aria-controls={replayId}
                className="flex w-full items-center justify-between px-4 py-2 text-left text-sm text-zinc-600 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 sm:px-5"
              >
                {replaying ? t.hideSteps : t.showSteps(steps.length)}
                <Chevron open={replaying} />
              </button>
              {replaying && (
                <div id={replayId} className="px-2 pb-3 sm:px-3">
                  {player(true)}
                </div>
              )}
            </div>
          )}
        </>
      )}
      <FileList files={run.files ?? []} />
      {error && (
        <div role="alert" className="border-t border-red-100 bg-red-50 px-4 py-2 text-sm text-red-800">
          <ErrorReason error={error} />
        </div>
      )}
      {focused && (
        <FocusView
          title={task.text}
          status={task.status}
          onClose={() => setFocused(false)}
          actions={
            waitsForAct ? (
              <button type="button" onClick={ack} disabled={pending !== null} className={SMALL_PRIMARY}>
                {t.ack}
              </button>
            ) : (
              ending === null && (
                <button type="button" onClick={stop} disabled={pending !== null} aria-label={t.stopTask} className={`flex items-center gap-1.5 ${SMALL_SECONDARY} py-1 text-sm`}>
                  <span aria-hidden="true" className="size-2.5 rounded-[2px] bg-red-600" />
                  {t.stop}
                </button>
              )
            )
          }
        >
          {waitsForAct ? <PersonScreen run={run} control={sendInput} focus /> : player(true, true)}
        </FocusView>
      )}
    </article>
  );
}

interface PlayerProps {
  box: RefObject<HTMLDivElement | null>;
  /** A pointer is pressed in the player (dragging the scrubber). */
  onPressing: (pressing: boolean) => void;
  run: RunState;
  position: Position;
  onPosition: (position: Position) => void;
  showTimeline: boolean;
  timelineId: string;
  finished: boolean;
  actions: ReactNode;
  /** The screen is the person's (a takeover): their input on it goes here. */
  control: ((input: PersonInputBody) => void) | undefined;
  /** Shown under the live screen (the takeover's Resume). */
  below: ReactNode;
  /** In the focus view: the screen as large as it goes, the timeline beside it (under it on a phone). */
  focus: boolean;
  onEnlarge: (() => void) | undefined;
}

/** A task waiting for the person to act: its live screen, large, for them to act on. */
function PersonScreen({ run, control, onEnlarge, focus = false }: { run: RunState; control: (input: PersonInputBody) => void; onEnlarge?: () => void; focus?: boolean }) {
  return (
    <div className={`flex flex-col gap-1 ${focus ? "" : "mt-3"}`}>
      {focus && run.task.answer && <p className="mb-1 text-sm text-zinc-800">{run.task.answer}</p>}
      <ScreenWindow view={screenView(run, "live")} status={run.task.status} positionLabel={t.live} alt={t.liveShot} control={control} onEnlarge={onEnlarge} focus={focus} size={focus ? "focus" : "card"} />
      <p className="text-xs text-zinc-600">{t.actHint}</p>
    </div>
  );
}

/** Timeline, screen and scrubber, all reading and setting the same position. */
function Player({ box, onPressing, run, position, onPosition, showTimeline, timelineId, finished, actions, control, below, focus, onEnlarge }: PlayerProps) {
  const count = run.steps.length;
  const value = scrubberValue(position, count);
  // Which of the step's screenshots the person asked for; a step shows the one before its action until they do.
  const [shot, setShot] = useState<{ at: number; shot: Shot } | null>(null);
  if (shot && shot.at !== value) setShot(null);
  const view = screenView(run, positionFromValue(value, count), shot?.at === value ? shot.shot : undefined);
  // Seed 003 §4: while the task runs, the live screen carries the step counter and the last action.
  const liveLabel = finished ? t.end : count > 0 ? t.liveStep(count) : t.live;
  const label = value === count ? liveLabel : t.stepOf(value + 1, count);
  // On wide screens the timeline stands beside the screen, so the whole card fits in view.
  return (
    <div
      ref={box}
      onPointerDownCapture={() => onPressing(true)}
      onPointerUpCapture={() => onPressing(false)}
      onPointerCancelCapture={() => onPressing(false)}
      className={`flex flex-col gap-2 ${focus ? "lg:grid lg:grid-cols-[18rem_minmax(0,1fr)] lg:items-start lg:gap-4" : showTimeline ? "lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:items-start lg:gap-3" : ""}`}
    >
      {showTimeline && (
        <Timeline id={focus ? `${timelineId}-focus` : timelineId} steps={run.steps} selected={value === count ? null : value} onSelect={onPosition} tall={focus} />
      )}
      <div className="flex min-w-0 flex-col gap-1">
        <ScreenWindow
          view={view}
          status={run.task.status}
          positionLabel={label}
          alt={view.step ? t.stepShot(value + 1) : t.liveShot}
          actions={value === count ? actions : null}
          control={value === count ? control : undefined}
          onShot={(next) => setShot({ at: value, shot: next })}
          onEnlarge={onEnlarge}
          focus={focus}
        />
        {value === count && below}
        <Scrubber
          stepCount={count}
          value={value}
          onChange={(next) => onPosition(positionFromValue(next, count))}
          liveLabel={liveLabel}
          valueText={view.step ? `${label}: ${view.step.text}` : label}
        />
        {view.step && <StepChecks step={view.step} />}
        {view.step?.tool && <ToolCall call={view.step.tool} />}
        {view.step && <StepCost step={view.step} />}
      </div>
    </div>
  );
}

function isEnding(status: TaskStatus): boolean {
  return status !== "queued" && status !== "running" && status !== "takeover";
}

function endingOf({ task, stopReason }: RunState, repliedBelow: boolean): Ending | null {
  switch (task.status) {
    case "queued":
    case "running":
    case "takeover":
      return null;
    case "completed":
      return { kind: "completed", answer: task.answer ?? "", repliedBelow };
    case "awaiting_user":
      return { kind: "awaiting_user", answer: task.answer ?? "", approval: task.approval !== null };
    case "failed":
      return { kind: "failed", error: task.error };
    case "stopped":
      return { kind: "stopped", reason: stopReason };
  }
}
