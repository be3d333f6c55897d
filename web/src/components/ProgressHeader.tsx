// The run card's header: status, the latest progress text (wrapped, never cut to a word or two),
// the timeline toggle and Stop. It stays at the top of the chat while the card scrolls under it.
// While the task works between its steps it says on what, and for how long: in place of the
// progress text before the first step, beside the status after it.
import { useEffect, useState, type Ref } from "react";
import { formatUsd, type TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";
import type { RunActivity } from "../state/session-state.ts";
import { StatusDot, statusLabel } from "./Status.tsx";

export interface ProgressHeaderProps {
  status: TaskStatus;
  /** The latest step's text; null before the first step. */
  latest: string | null;
  /** What the task is doing now, shown while it runs. */
  activity?: RunActivity | null | undefined;
  expanded: boolean;
  onToggle: () => void;
  timelineId: string;
  onStop?: (() => void) | undefined;
  stopping?: boolean;
  /** The toggle, for the card to put focus back on (after I've done it). */
  toggleRef?: Ref<HTMLButtonElement>;
  /** What the task's model calls cost so far; shown once it is known and more than nothing. */
  costUsd?: number | null;
}

export function ProgressHeader({ status, latest, activity, expanded, onToggle, timelineId, onStop, stopping = false, toggleRef, costUsd = null }: ProgressHeaderProps) {
  const doing = status === "running" && activity ? <ActivityText activity={activity} /> : null;
  return (
    <div data-testid="run-header" className="sticky top-0 z-10 flex items-start gap-2 rounded-t-2xl bg-white/95 px-3 py-2.5 backdrop-blur-sm sm:px-4">
      <button
        ref={toggleRef}
        type="button"
        onClick={onToggle}
        aria-expanded={expanded}
        aria-controls={timelineId}
        className="flex min-w-0 flex-1 flex-wrap items-start gap-x-2 gap-y-0.5 rounded-md text-left max-sm:min-h-11 @md:flex-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        {/* The status and what it works on wrap inside their own box, so the arrow after it stays at
            the end of the status's line in a narrow card. */}
        <span className="flex min-w-0 flex-1 basis-0 flex-wrap items-start gap-x-2 gap-y-0.5 @md:flex-none @md:basis-auto @md:flex-nowrap">
          <span className="flex h-5 shrink-0 items-center">
            <StatusDot status={status} />
          </span>
          <span className="shrink-0 text-sm/5 font-medium text-zinc-900">{statusLabel(status)}</span>
          <TaskCost costUsd={costUsd} />
          {latest !== null && doing && <span className="min-w-0 text-sm/5 text-zinc-500">{doing}</span>}
        </span>
        {/* In a narrow card (a phone, the chat's column beside the stage) it takes a line of its own
            under the status, the whole width of the header. */}
        <span data-testid="latest-progress" className="order-last line-clamp-3 min-w-0 basis-full text-sm/5 break-words text-zinc-600 @md:order-none @md:line-clamp-2 @md:flex-1 @md:basis-0">
          {status === "queued" ? t.queuedDetail : (latest ?? doing ?? t.starting)}
        </span>
        <span className="sr-only">{expanded ? t.hideProgress : t.showProgress}</span>
        <span className="flex h-5 shrink-0 items-center">
          <Chevron open={expanded} />
        </span>
      </button>
      {onStop && (
        <button
          type="button"
          onClick={onStop}
          disabled={stopping}
          aria-label={t.stopTask}
          className="flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-sm font-medium text-zinc-700 max-sm:min-h-11 max-sm:min-w-11 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
        >
          <span aria-hidden="true" className="size-2.5 rounded-[2px] bg-red-600" />
          {t.stop}
        </button>
      )}
    </div>
  );
}

/** The task's cost so far, quiet beside its status: nothing while it is unknown or nothing yet. */
export function TaskCost({ costUsd }: { costUsd: number | null }) {
  if (!costUsd) return null;
  return (
    <span data-testid="task-cost" title={t.taskCost} className="shrink-0 text-sm/5 text-zinc-500 tabular-nums">
      <span className="sr-only">{t.taskCost}: </span>
      {formatUsd(costUsd)}
    </span>
  );
}

/** The activity in words, and the seconds it has lasted, counted on. */
function ActivityText({ activity }: { activity: RunActivity }) {
  const since = Date.parse(activity.since);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  const seconds = Number.isNaN(since) ? 0 : Math.floor((now - since) / 1000);
  const words = activity.activity === "model_retry" && activity.attempt && activity.of ? t.modelRetry(activity.attempt, activity.of) : t.activity[activity.activity];
  return (
    <span data-testid="run-activity" data-activity={activity.activity}>
      {words}
      {/* Held to the words: the seconds never start a line of their own. */}
      {seconds >= 1 && `\u00a0${t.elapsedSeconds(seconds)}`}
    </span>
  );
}

export function Chevron({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-4 shrink-0 text-zinc-500 transition-transform ${open ? "rotate-180" : ""}`}>
      <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
