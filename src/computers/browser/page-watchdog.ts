// A page whose main thread never comes back (a script in an endless loop) answers nothing, and
// every wait on it — a capture, a script run in it, a snapshot of its DOM — would last until the
// task's time limit. An operation on the page still pending after a while has the page asked
// something trivial; when that goes unanswered too, the operation fails with PAGE_UNRESPONSIVE,
// which ends the task. A page that is only slow (a long navigation) answers, and is waited for.
import type { CDPSession } from "playwright-core";
import { AppError } from "../../core/errors.ts";

/** How long an operation on the page runs before the page is asked whether it still answers. */
const ASK_AFTER_MS = 15_000;
/** How long the page has to answer: a page between two documents answers well within it. */
const ANSWER_WITHIN_MS = 5_000;

/** `pending`, or PAGE_UNRESPONSIVE once it has run ASK_AFTER_MS and the page (its session, `cdp`) does not answer either. */
export async function unlessUnresponsive<T>(pending: Promise<T>, cdp: () => CDPSession): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const stuck = new Promise<never>((_, reject) => {
    const ask = async () => {
      const answered = await answers(cdp(), ANSWER_WITHIN_MS);
      if (settled) return;
      if (answered) timer = setTimeout(ask, ASK_AFTER_MS);
      else reject(pageUnresponsive(`it answered nothing for ${(ASK_AFTER_MS + ANSWER_WITHIN_MS) / 1000} s`));
    };
    timer = setTimeout(ask, ASK_AFTER_MS);
  });
  try {
    return await Promise.race([pending, stuck]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/** The error of a page that neither draws nor answers: `why` says what it failed to do. */
export function pageUnresponsive(why: string, cause?: unknown): AppError {
  const message = `The page stopped responding: ${why} (a script on it may be stuck in a loop), so the agent can no longer see it or act on it.`;
  return new AppError("PAGE_UNRESPONSIVE", message, { cause });
}

async function answers(cdp: CDPSession, withinMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
  const answer = cdp.send("Runtime.evaluate", { expression: "0" }).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
