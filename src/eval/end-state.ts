// A task's end as the checks read it: what its computer showed just before it closed (the page's
// address and visible text, each `js` check's value, the screen for a judge) and what the task
// recorded (its answer, the files it received). Looking happens while the computer is still open,
// so the runtime hands each computer to `EndLooks.look` as it closes.
import type { Computer } from "../computers/computer.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { Check } from "./suite.ts";

export interface EndState {
  url: string | null;
  /** The page's visible text; null where the computer has no page (a desktop). */
  text: string | null;
  /** Each `js` check's expression and its value: true, false, or why it could not be had. */
  js: Map<string, boolean | { error: string }>;
  answer: string | null;
  /** The names of the files the task received and kept. */
  files: string[];
  screenshot: Screenshot | null;
}

export type EndLook = Pick<EndState, "url" | "text" | "js" | "screenshot">;

/** Visible text of the page and of its same-origin frames and open shadow roots, as a person reads them. */
const VISIBLE_TEXT = `(() => {
  const parts = [];
  const walk = (root) => {
    if (root.body) parts.push(root.body.innerText);
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) parts.push(el.shadowRoot.textContent || "");
      if (el.tagName === "IFRAME") { try { if (el.contentDocument) walk(el.contentDocument); } catch {} }
    }
  };
  walk(document);
  return parts.join("\\n");
})()`;

/** The expressions the checks evaluate in the page, and whether any is a judge's (it sees the screen). */
function needs(check: Check, into: { text: boolean; js: Set<string>; screen: boolean }): typeof into {
  switch (check.type) {
    case "page_text":
      into.text = true;
      break;
    case "js":
      into.js.add(check.expression);
      break;
    case "judge":
      into.screen = true;
      break;
    case "all":
      for (const inner of check.checks) needs(inner, into);
      break;
    case "url":
    case "answer":
    case "file":
      break;
  }
  return into;
}

/** How long the end waits for a page still loading: a task may end right after a click that submitted a form. */
const END_LOAD_MS = 5_000;

/**
 * The expression's value in the page once it has loaded; tried once more when a navigation
 * replaced the page while it ran (its context was destroyed).
 */
async function inLoadedPage(computer: Computer & { evaluate(expression: string): Promise<unknown> }, expression: string): Promise<unknown> {
  try {
    return await computer.evaluate(expression);
  } catch {
    await computer.web?.waitForLoad(END_LOAD_MS).catch(() => false);
    return computer.evaluate(expression);
  }
}

/** Reads what the check needs from a computer about to close; never throws, a failed read is recorded. */
export async function lookAtEnd(computer: Computer, check: Check): Promise<EndLook> {
  const want = needs(check, { text: false, js: new Set(), screen: false });
  // What the last action started (a form's post, a navigation) is let finish before the end is read.
  await computer.settle().catch(() => undefined);
  await computer.web?.waitForLoad(END_LOAD_MS).catch(() => false);
  const url = await computer.currentUrl().catch(() => null);
  const evaluate = computer.evaluate ? (expression: string) => inLoadedPage(computer as Parameters<typeof inLoadedPage>[0], expression) : undefined;
  const text = want.text && evaluate ? await evaluate(VISIBLE_TEXT).then(String, () => null) : null;
  const js = new Map<string, boolean | { error: string }>();
  for (const expression of want.js) {
    if (!evaluate) {
      js.set(expression, { error: `a ${computer.kind} has no page to evaluate it in` });
      continue;
    }
    js.set(expression, await evaluate(`(async () => (${expression}))()`).then((value) => value === true, (error: unknown) => ({ error: (error as Error).message.split("\n")[0] ?? "" })));
  }
  const screenshot = want.screen ? await computer.screenshot().catch(() => null) : null;
  return { url, text, js, screenshot };
}

/**
 * The looks of an evaluation's tasks, by session (each task runs in a session of its own, known
 * before the task starts): the runner says what to look for, the closing computer is looked at.
 */
export class EndLooks {
  private readonly wanted = new Map<string, Check>();
  private readonly seen = new Map<string, EndLook>();

  expect(sessionId: string, check: Check): void {
    this.wanted.set(sessionId, check);
  }

  async look(sessionId: string, computer: Computer): Promise<void> {
    const check = this.wanted.get(sessionId);
    if (check) this.seen.set(sessionId, await lookAtEnd(computer, check));
  }

  /** What was seen, once; a task whose computer never opened saw nothing. */
  take(sessionId: string): EndLook {
    const look = this.seen.get(sessionId) ?? { url: null, text: null, js: new Map(), screenshot: null };
    this.wanted.delete(sessionId);
    this.seen.delete(sessionId);
    return look;
  }
}
