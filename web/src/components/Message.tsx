// Chat bubbles: the person's messages (with their attachments), the assistant's answers — stored,
// streaming or failed — and the answers an earlier request of a task left in the conversation.
import type { ChatMessage, TaskError } from "../protocol.ts";
import type { FollowUpState } from "../state/chat-items.ts";
import { useState } from "react";
import { t } from "../i18n.ts";
import { ErrorReason } from "./ErrorNotice.tsx";
import { Markdown } from "./Markdown.tsx";
import { ThinkingBar } from "./ThinkingBar.tsx";

/** The person's message; a follow-up to a running task says whether the agent has read it. */
export function UserMessage({ message, followUp }: { message: ChatMessage; followUp?: FollowUpState | undefined }) {
  return (
    <div data-testid="user-message" className="flex flex-col items-end gap-1">
      <div className="max-w-[85%] rounded-2xl rounded-br-md bg-indigo-600 px-4 py-2 text-[15px] whitespace-pre-wrap wrap-anywhere text-white shadow-sm sm:max-w-[75%]">
        {message.text}
        {message.attachments.length > 0 && (
          <ul aria-label={t.attachments} className="mt-2 flex flex-wrap gap-1.5">
            {message.attachments.map((file, index) => (
              <li key={`${file.name}-${index}`}>
                <AttachmentChip name={file.name} tone="onAccent" />
              </li>
            ))}
          </ul>
        )}
      </div>
      {followUp && (
        <p role="status" data-testid="follow-up-state" className="flex items-center gap-1 px-1 text-xs text-zinc-600">
          {followUp.readAt !== null ? (
            <>
              <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5 text-emerald-600">
                <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              {t.followUpRead(followUp.readAt)}
            </>
          ) : followUp.open ? (
            t.followUpWaiting
          ) : (
            t.followUpUnread
          )}
        </p>
      )}
    </div>
  );
}

export function AnswerMessage({ message }: { message: ChatMessage }) {
  return (
    <div data-testid="answer-message" className="max-w-[92%] rounded-2xl rounded-bl-md border border-zinc-200 bg-white px-4 py-3 shadow-sm">
      <Markdown text={message.text} />
    </div>
  );
}

/** A reply in progress: thinking, then its text so far, growing, with a caret; it can be stopped. */
export function StreamingAnswer({ text, onStop }: { text: string; onStop: () => Promise<void> }) {
  return (
    <div className="flex flex-col items-start gap-1.5">
      {text ? (
        <div data-testid="streaming-answer" aria-live="polite" aria-busy="true" className="max-w-[92%] rounded-2xl rounded-bl-md border border-zinc-200 bg-white px-4 py-3 shadow-sm">
          <Markdown text={text} className="streaming" />
        </div>
      ) : (
        <ThinkingBar />
      )}
      <QuietStop label={t.stopAnswer} onStop={onStop} />
    </div>
  );
}

/** A task waiting its turn (MAX_CONCURRENT_TASKS are running): it can be called off before it starts. */
export function QueuedRun({ onStop }: { onStop: () => Promise<void> }) {
  return (
    <div data-testid="queued-run" className="flex flex-col items-start gap-1.5">
      <ThinkingBar label={t.queued} />
      <QuietStop label={t.stopQueued} onStop={onStop} />
    </div>
  );
}

/** A small, quiet button that stops something in progress, disabled once pressed unless that fails. */
function QuietStop({ label, onStop }: { label: string; onStop: () => Promise<void> }) {
  const [stopping, setStopping] = useState(false);
  const stop = () => {
    setStopping(true);
    void onStop().catch(() => setStopping(false));
  };
  return (
    <button
      type="button"
      onClick={stop}
      disabled={stopping}
      className="rounded-md px-2 py-1 text-xs font-medium text-zinc-500 max-sm:min-h-11 max-sm:min-w-11 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60"
    >
      {label}
    </button>
  );
}

export function FailedAnswer({ text, error }: { text: string; error: TaskError | null }) {
  return (
    <div role="alert" data-testid="failed-answer" className="max-w-[92%] rounded-2xl rounded-bl-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
      {text && <Markdown text={text} />}
      <p className="font-semibold">{t.answerFailed}</p>
      {error && <ErrorReason error={error} className="mt-1" />}
    </div>
  );
}

export function AttachmentChip({ name, tone }: { name: string; tone: "onAccent" | "plain" }) {
  const colours = tone === "onAccent" ? "bg-white/15 text-white" : "bg-zinc-100 text-zinc-700";
  return (
    <span className={`inline-flex max-w-56 items-center gap-1 rounded-md px-2 py-0.5 text-xs ${colours}`}>
      <PaperclipIcon className="size-3.5 shrink-0" />
      <span className="truncate">{name}</span>
    </span>
  );
}

export function PaperclipIcon({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className}>
      <path
        d="M13.5 6.5l-5.8 5.8a1.6 1.6 0 002.3 2.3l6-6a3.2 3.2 0 00-4.6-4.6l-6 6a4.8 4.8 0 006.8 6.8l5.3-5.3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
