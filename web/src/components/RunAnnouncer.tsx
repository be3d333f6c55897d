// Tells screen readers what the chat's tasks do as it happens: each new step and the end of a task
// politely, a request for the person's action or approval assertively. What a chat already showed
// when it was opened is not news. Two visually hidden live regions; it renders nothing visible.
import { useEffect, useRef, useState } from "react";
import { plainReason, stopReasonText } from "../error-text.ts";
import { t } from "../i18n.ts";
import { stepWords } from "../state/step-words.ts";
import { describeStep, type TaskStatus } from "../protocol.ts";
import type { RunState } from "../state/session-state.ts";

interface Seen {
  status: TaskStatus;
  steps: number;
  /** Queued again after the person answered it (a task resumed after a restart waits for its place). */
  answered: boolean;
}

/** An answer read aloud is cut here; the card has the rest. */
const SPOKEN_MAX = 300;

export function RunAnnouncer({ runs, loaded }: { runs: Readonly<Record<string, RunState>>; loaded: boolean }) {
  const seen = useRef<Map<string, Seen> | null>(null);
  const [polite, setPolite] = useState("");
  const [assertive, setAssertive] = useState("");

  useEffect(() => {
    if (!loaded) return;
    const before = seen.current;
    seen.current = new Map(
      Object.values(runs).map((run) => {
        const was = before?.get(run.task.id);
        const answered = run.task.status === "queued" && (was?.status === "awaiting_user" || was?.answered === true);
        return [run.task.id, { status: run.task.status, steps: run.steps.length, answered }];
      }),
    );
    if (before === null) return;
    for (const run of Object.values(runs)) {
      const news = newsOf(run, before.get(run.task.id));
      if (news?.urgent) setAssertive(news.text);
      else if (news) setPolite(news.text);
    }
  }, [runs, loaded]);

  return (
    <>
      <div role="status" data-testid="announce-polite" className="sr-only">
        {polite}
      </div>
      <div aria-live="assertive" aria-atomic="true" data-testid="announce-assertive" className="sr-only">
        {assertive}
      </div>
    </>
  );
}

function newsOf({ task, steps, stopReason }: RunState, before: Seen | undefined): { text: string; urgent: boolean } | null {
  if (before?.status !== task.status) {
    switch (task.status) {
      case "awaiting_user": {
        const asked = spoken(task.answer ?? "");
        return { text: task.approval ? t.announceApproval(asked) : t.announceNeedsUser(asked), urgent: true };
      }
      case "completed":
        return { text: `${t.announceDone} ${spoken(task.answer ?? "")}`.trim(), urgent: false };
      case "failed":
        return { text: t.announceFailed(task.error ? plainReason(task.error.code, task.error.message) : ""), urgent: true };
      case "stopped":
        return { text: `${t.announceStopped} ${stopReason ? stopReasonText(stopReason) : ""}`.trim(), urgent: false };
      case "running":
        if (before?.status === "awaiting_user" || before?.status === "takeover" || before?.answered) return { text: t.announceResumed, urgent: false };
        break;
      case "queued":
        if (before?.status === "awaiting_user") return { text: t.queued, urgent: false };
        break;
      case "takeover":
        break;
    }
  }
  const last = steps.at(-1);
  if (last && steps.length > (before?.steps ?? 0) && task.status === "running") return { text: t.announceStep(last.index, last.text ? stepWords(last.text) : describeStep(last)), urgent: false };
  return null;
}

/** Markdown read as plain words, not too long. */
function spoken(markdown: string): string {
  const text = markdown.replace(/[*_`#>]+/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\s+/g, " ").trim();
  return text.length > SPOKEN_MAX ? `${text.slice(0, SPOKEN_MAX)}…` : text;
}
