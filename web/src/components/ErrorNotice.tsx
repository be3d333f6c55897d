// An error as a person reads it: the plain reason in the UI's language first, the agent's own
// words when they explain it, and the server's code and message folded away for developers.
// Presentational.
import { agentWords, plainReason } from "../error-text.ts";
import { t } from "../i18n.ts";

/** An error as the UI got it: a code from the server (null for the UI's own) and its message. */
export interface ShownError {
  code: string | null;
  message: string;
}

/** What a failed request or a thrown value amounts to, keeping the server's code when it sent one. */
export function shownError(failure: unknown): ShownError {
  if (failure instanceof Error && "code" in failure && typeof failure.code === "string") return { code: failure.code, message: failure.message };
  return { code: null, message: failure instanceof Error ? failure.message : String(failure) };
}

export interface ErrorNoticeProps {
  error: ShownError;
  /** The reason's test id (a task's `failure-reason`). */
  testId?: string;
  className?: string;
}

/** The reason, and a disclosure with what the server said. */
export function ErrorReason({ error, testId, className = "" }: ErrorNoticeProps) {
  const reason = error.code === null ? error.message : plainReason(error.code, error.message);
  const words = error.code === null ? null : agentWords(error.code, error.message);
  return (
    <div className={className}>
      <p data-testid={testId}>{reason}</p>
      {words && (
        <p className="mt-1">
          <span className="font-medium">{t.agentSaid}</span> {words}
        </p>
      )}
      {error.code !== null && (
        <details data-testid="error-details" className="mt-1 text-xs">
          <summary className="w-fit cursor-pointer rounded-sm opacity-90 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500">
            {t.errorDetails}
          </summary>
          <p className="mt-1 font-mono break-all">{error.code}</p>
          <p className="mt-0.5 font-mono break-words whitespace-pre-wrap">{error.message}</p>
        </details>
      )}
    </div>
  );
}
