// How a run ends in words: the answer (Markdown) of a completed or waiting task with its
// "I've done it" button, or the reason a task failed or was stopped. Presentational.
import type { ReactNode } from "react";
import type { TaskError } from "../protocol.ts";
import { t } from "../i18n.ts";
import { Markdown } from "./Markdown.tsx";

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

function EndingBody({ ending }: { ending: Ending }) {
  switch (ending.kind) {
    case "completed":
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
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-semibold">{t.taskFailed}</p>
          {ending.error && (
            <p data-testid="failure-reason" className="mt-1">
              {ending.error.message} <span className="font-mono text-xs text-red-700">({ending.error.code})</span>
            </p>
          )}
        </div>
      );
    case "stopped":
      return (
        <div role="status" className="rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-800">
          <p className="font-semibold">{t.taskStopped}</p>
          {ending.reason && (
            <p data-testid="stop-reason" className="mt-1">
              {ending.reason}
            </p>
          )}
        </div>
      );
  }
}
