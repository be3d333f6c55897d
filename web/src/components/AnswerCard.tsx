// How a run ends in words: the answer (Markdown) of a completed or waiting task with its
// "I've done it" button, or the reason a task failed or was stopped, with Retry and Continue
// (issue 16) for a task that ended without its answer. Presentational: the chat's
// RunAnnouncer tells screen readers how a run ended, so nothing here is a live region.
import type { ReactNode } from "react";
import type { TaskError } from "../protocol.ts";
import { stopReasonText } from "../error-text.ts";
import { t } from "../i18n.ts";
import { ErrorReason } from "./ErrorNotice.tsx";
import { Markdown } from "./Markdown.tsx";
import { PRIMARY, SECONDARY } from "./buttons.ts";

export type Ending =
  | { kind: "completed"; answer: string }
  | { kind: "awaiting_user"; answer: string; approval: boolean }
  | { kind: "failed"; error: TaskError | null }
  | { kind: "stopped"; reason: string | null };

export interface AnswerCardProps {
  ending: Ending;
  /** What the text is about (the screen an approval asks about), between it and the buttons. */
  detail?: ReactNode;
  /** Buttons under the text (I've done it, Stop). */
  actions?: ReactNode;
}

export function AnswerCard({ ending, detail, actions }: AnswerCardProps) {
  return (
    <div className="px-4 py-3 sm:px-5 sm:py-4">
      <EndingBody ending={ending} />
      {detail}
      {actions && <div className="mt-3 flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export interface TakeUpActionsProps {
  onRetry: () => void;
  onContinue: () => void;
  /** The request under way, if any: every button waits for it. */
  pending: "retry" | "continue" | "other" | null;
}

/** The buttons of a failed, stopped or interrupted card: Continue from the last step, or Retry from the start. */
export function TakeUpActions({ onRetry, onContinue, pending }: TakeUpActionsProps) {
  return (
    <>
      <button type="button" onClick={onContinue} disabled={pending !== null} title={t.continueHint} className={PRIMARY}>
        {pending === "continue" ? t.continuing : t.continueTask}
      </button>
      <button type="button" onClick={onRetry} disabled={pending !== null} className={SECONDARY}>
        {pending === "retry" ? t.retrying : t.retry}
      </button>
    </>
  );
}

function EndingBody({ ending }: { ending: Ending }) {
  switch (ending.kind) {
    case "completed":
      // Always in full: the assistant's reply below adds to it, and never stands in for it.
      return <Markdown data-testid="answer" text={ending.answer} />;
    case "awaiting_user":
      return (
        <>
          <p className="mb-2 flex items-center gap-2 text-xs font-semibold tracking-wide text-amber-700 uppercase">
            <span aria-hidden="true" className="size-2 rounded-full bg-amber-500" />
            {ending.approval ? t.approvalNeeded : t.awaitingUser}
          </p>
          <Markdown data-testid="answer" text={ending.answer} />
        </>
      );
    case "failed":
      return (
        <div data-testid="failure" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-semibold">{t.taskFailed}</p>
          {ending.error && <ErrorReason error={ending.error} testId="failure-reason" className="mt-1" />}
        </div>
      );
    case "stopped":
      return (
        <div data-testid="stopped" className="rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-800">
          <p className="font-semibold">{t.taskStopped}</p>
          {ending.reason && (
            <p data-testid="stop-reason" className="mt-1">
              {stopReasonText(ending.reason)}
            </p>
          )}
        </div>
      );
  }
}
