// A task taken up again after a restart (issue 12). One that waited for the person when its server
// died is kept `awaiting_user` by the store; the person's answer resumes it in a fresh computer on
// the page it was on, with a fresh driver told the steps so far, the question and the answer,
// which looks again before it acts. A pending approval's action was lost with the process: it is
// not done, and the driver decides it anew.
import type { ProgressStep, Task } from "../protocol/index.ts";

/** What the person answered: "I've done it" (or their words), or a decision on the pending approval. */
export type PersonAnswer = { kind: "ack"; text: string } | { kind: "approval"; approvalId: string; approved: boolean };

export interface Resumption {
  answer: PersonAnswer;
  /** The page to open again: the last step's, else the task's start page. */
  url: string | null;
  /** What the driver is told happened while it was away. */
  note: string;
}

export function resumptionOf(task: Task, steps: readonly ProgressStep[], answer: PersonAnswer): Resumption {
  const url = [...steps].reverse().find((step) => step.url)?.url ?? task.start_url;
  const asked = task.approval
    ? `approval of "${task.approval.intent || task.approval.checks.map((c) => c.message).join(", ")}"`
    : `the person: ${task.answer ?? ""}`;
  const said = answer.kind === "ack" ? `they answered: ${answer.text}` : `they ${answer.approved ? "allowed" : "did not allow"} it, but it was not done: look again and decide`;
  const reopened = url ? ` The page was opened again at ${url}.` : "";
  return { answer, url, note: `The server restarted while the task waited for ${asked}; ${said}.${reopened}` };
}
