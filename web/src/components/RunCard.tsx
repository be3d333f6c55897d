// The assistant's run card for one task. While the task runs: progress header, timeline,
// screen window and scrubber, kept in sync through one selected position; the screen window's
// Take over gives the person the screen (seed 004 §2) until they press Resume. Once it completes,
// waits for the person, fails or stops: the answer card, with the steps still open to replay — and
// a task waiting for the person to act opens its live screen for them to act on.
// Its only state is local UI state; everything it shows comes from the run it is given.
import { useEffect, useId, useRef, useState } from "react";
import { useBringIntoView } from "../hooks/useBringIntoView.ts";
import { useInputQueue } from "../hooks/useInputQueue.ts";
import { t } from "../i18n.ts";
import type { PersonInputBody, TaskStatus } from "../protocol.ts";
import type { Position } from "../state/run-view.ts";
import { isActive, type RunState } from "../state/session-state.ts";
import { stepWords } from "../state/step-words.ts";
import { AnswerCard, TakeUpActions, type Ending } from "./AnswerCard.tsx";
import { FileList } from "./FileList.tsx";
import { ApprovalFromPage, ApprovalShot, ApprovalUpload } from "./ApprovalShot.tsx";
import { ErrorReason, shownError, type ShownError } from "./ErrorNotice.tsx";
import { FocusView } from "./FocusView.tsx";
import { focusPrompt } from "./PromptInput.tsx";
import { Chevron, ProgressHeader, TaskCost } from "./ProgressHeader.tsx";
import { PersonScreen, Player } from "./RunPlayer.tsx";
import { Timeline } from "./Timeline.tsx";
import { PRIMARY, SECONDARY, SMALL_PRIMARY, SMALL_SECONDARY, TOUCH } from "./buttons.ts";

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
  /** The chat gives this task's screen the stage beside it (on a wide window). */
  staged?: boolean;
  /** The run ended while the person was in its player: the player keeps the stage. */
  onHoldStage?: () => void;
}

/**
 * The screen on the stage: fixed over the box the chat keeps beside itself (useStageBox), on a wide
 * window only; on a narrow one it stays in the card. Its image is as tall as the stage allows.
 */
const STAGE =
  "lg:fixed lg:top-(--stage-y) lg:left-(--stage-x) lg:z-10 lg:m-0 lg:h-(--stage-h) lg:w-(--stage-w) lg:overflow-y-auto lg:border-0 lg:bg-zinc-100 lg:p-3 lg:[--screen-h:calc(var(--stage-h)_-_8.5rem)]";

type Pending = "stop" | "ack" | "decide" | "again" | "retry" | "continue" | "takeover" | "resume";

export function RunCard({ run, onStop, onAck, onDecide, onRunAgain, onRetry, onContinue, onTakeOver, onResume, onInput, staged = false, onHoldStage }: RunCardProps) {
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
  const [pictureFocused, setPictureFocused] = useState(false);
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
    // An approval is answered on the card, which comes into view; the enlarged screen the person
    // pinned stays open through the rest (a request to act is done on it, I've done it above it).
    if (task.status === "awaiting_user" && task.approval) setFocused(false);
    setPictureFocused(false);
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
  const replayable = task.status === "completed";
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

  const ending = endingOf(run);
  const finished = ending !== null && ending.kind !== "awaiting_user";
  const endActions = replayable ? (
    <button type="button" onClick={runAgain} disabled={pending !== null} className={SECONDARY}>
      {t.runAgain}
    </button>
  ) : ending?.kind === "failed" || ending?.kind === "stopped" ? (
    <TakeUpActions onRetry={retry} onContinue={continueTask} pending={pending === "retry" || pending === "continue" ? pending : pending === null ? null : "other"} />
  ) : null;
  const keptOpen = finished && keepPlayer;
  const onStage = staged && (isActive(task.status) || keptOpen);
  useEffect(() => {
    if (keptOpen) onHoldStage?.();
  }, [keptOpen, onHoldStage]);
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
      staged={onStage && !focus}
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
      className="@container scroll-my-3 overflow-clip rounded-2xl border border-zinc-200 bg-white shadow-sm focus:outline-none max-sm:-mx-3 max-sm:rounded-none max-sm:border-x-0"
    >
      {ending === null || keptOpen ? (
        <>
          <ProgressHeader
            status={task.status}
            latest={steps.length > 0 ? stepWords(steps.at(-1)!.text) : null}
            activity={run.activity}
            expanded={expanded}
            onToggle={() => setExpanded(!expanded)}
            timelineId={timelineId}
            onStop={ending === null ? stop : undefined}
            stopping={pending === "stop"}
            toggleRef={headerToggle}
            costUsd={task.cost_usd}
          />
          {/* Above the player: with the chat held at its bottom, what is added above does not move the player. */}
          {ending !== null && (
            <div className="border-t border-zinc-100">
              <AnswerCard ending={ending} actions={endActions} />
            </div>
          )}
          {/* On the stage the screen takes its width alone; the steps stay in the chat's column. */}
          {onStage && expanded && (
            <div className="hidden border-t border-zinc-100 p-2 lg:block">
              <Timeline id={timelineId} steps={steps} selected={position === "live" ? null : Math.min(position, steps.length - 1)} onSelect={setPosition} />
            </div>
          )}
          <div className={`border-t border-zinc-100 px-2 pt-2 pb-3 sm:px-3 ${onStage ? STAGE : ""}`}>{player(expanded)}</div>
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
                  <ApprovalUpload approval={task.approval} />
                  {/* On a wide window the picture of what it would do takes the stage. */}
                  <div className={onStage ? STAGE : ""}>
                    <ApprovalShot approval={task.approval} onEnlarge={() => setPictureFocused(true)} />
                  </div>
                </>
              ) : (
                waitsForAct && (
                  <div className={onStage ? STAGE : ""}>
                    <PersonScreen run={run} control={sendInput} onEnlarge={() => setFocused(true)} />
                  </div>
                )
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
              {/* The task's total sits beside the toggle, not in its name. */}
              <div className="flex items-center">
                <button
                  type="button"
                  onClick={() => {
                    setPosition("live");
                    setReplaying(!replaying);
                  }}
                  aria-expanded={replaying}
                  aria-controls={replayId}
                  className={`flex min-w-0 flex-1 items-center justify-between px-4 py-2 text-left text-sm text-zinc-600 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 sm:px-5 ${TOUCH}`}
                >
                  {replaying ? t.hideSteps : t.showSteps(steps.length)}
                  <Chevron open={replaying} />
                </button>
                {task.cost_usd ? (
                  <span className="shrink-0 pr-4 sm:pr-5">
                    <TaskCost costUsd={task.cost_usd} />
                  </span>
                ) : null}
              </div>
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
      {pictureFocused && task.approval && (
        <FocusView title={task.text} status={task.status} onClose={() => setPictureFocused(false)}>
          <ApprovalShot approval={task.approval} full />
        </FocusView>
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

function isEnding(status: TaskStatus): boolean {
  return status !== "queued" && status !== "running" && status !== "takeover";
}

function endingOf({ task, stopReason }: RunState): Ending | null {
  switch (task.status) {
    case "queued":
    case "running":
    case "takeover":
      return null;
    case "completed":
      return { kind: "completed", answer: task.answer ?? "" };
    case "awaiting_user":
      return { kind: "awaiting_user", answer: task.answer ?? "", approval: task.approval !== null };
    case "failed":
      return { kind: "failed", error: task.error };
    case "stopped":
      return { kind: "stopped", reason: stopReason };
  }
}
