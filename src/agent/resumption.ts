// A task taken up again after a restart (issue 12). One that waited for the person when its server
// died is kept `awaiting_user` by the store; the person's answer resumes it in a fresh computer on
// the page it was on, with a fresh driver told the steps so far, the question and the answer,
// which looks again before it acts. A pending approval's action was lost with the process: it is
// not done, and the driver decides it anew. Continue (issue 16) takes up an ended task the same
// way, as a new task with no answer of the person's: it starts on the last step's page. A task whose
// worker died is taken up the same way by another worker, as the same task (`task.resumed`); one
// that waited for the person then waits still, and their answer resumes it as after a restart.
import type { ProgressStep, Task } from "../protocol/index.ts";

/** What the person answered: "I've done it" (or their words), or a decision on the pending approval. */
export type PersonAnswer = { kind: "ack"; text: string; messageId?: string } | { kind: "approval"; approvalId: string; approved: boolean };

export interface Resumption {
  /** Null for a continuation: a new task, which starts (`task.started`) rather than resumes. */
  answer: PersonAnswer | null;
  /** The page to open again: the last step's, else the task's start page. */
  url: string | null;
  /** What the driver is told happened while it was away. */
  note: string;
  /** The task it goes on from: the same one when resumed, the earlier one when continued. Its follow-ups still hold. */
  from: string;
}

/** `stopped`: what stopped while the task waited, as the driver is told it. */
export function resumptionOf(task: Task, steps: readonly ProgressStep[], answer: PersonAnswer, stopped = "The server restarted"): Resumption {
  const url = [...steps].reverse().find((step) => step.url)?.url ?? task.start_url;
  const asked = task.approval
    ? `approval of "${task.approval.intent || task.approval.checks.map((c) => c.message).join(", ")}"`
    : `the person: ${task.answer ?? ""}`;
  const said = answer.kind === "ack" ? `they answered: ${answer.text}` : `they ${answer.approved ? "allowed" : "did not allow"} it, but it was not done: look again and decide`;
  const reopened = url ? ` The page was opened again at ${url}.` : "";
  return { answer, url, note: `${stopped} while the task waited for ${asked}; ${said}.${reopened}`, from: task.id };
}

/**
 * A task taken up again by another worker after the one running it died (issue 38): the same task,
 * its driver told the steps stored so far, on the page it was on.
 */
export function takenUpOf(task: Task, steps: readonly ProgressStep[]): Resumption {
  const url = [...steps].reverse().find((step) => step.url)?.url ?? task.start_url;
  const reopened = url ? ` The page was opened again at ${url}; look at it before you act.` : " Look at the screen before you act.";
  const note = `This task was resumed: the process running it stopped after ${steps.length} step${steps.length === 1 ? "" : "s"} (listed above), and another took it up. Go on from there: do not redo what is done.${reopened}`;
  return { answer: null, url, note, from: task.id };
}

/**
 * Continue: a new task goes on from where `task` ended (failed, stopped or interrupted), on the
 * last step's page, its driver told the earlier steps (as a resumed task's is) and this note.
 */
export function continuationOf(task: Task, steps: readonly ProgressStep[]): Resumption {
  const url = [...steps].reverse().find((step) => step.url)?.url ?? task.start_url;
  const ended = task.status === "stopped" ? "was stopped" : `failed (${task.error?.code ?? "unknown"}: ${task.error?.message ?? "no reason given"})`;
  const reopened = url ? ` The page was opened again at ${url}; look at it before you act.` : " Look at the screen before you act.";
  const note = `This goes on from an earlier run of the same task, which ${ended} after ${steps.length} step${steps.length === 1 ? "" : "s"} (listed above). Continue from there: do not redo what is done.${reopened}`;
  return { answer: null, url, note, from: task.id };
}
