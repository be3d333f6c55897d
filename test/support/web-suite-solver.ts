// A planner that knows the local web suite's pages (evals/web/pages): for each task, the actions
// a careful person would take there, at the places the pages fix, then the answer. Scripted at the
// HTTP boundary like every model in the tests; the browser, the hands and the checks are real.
import type { SuiteTask } from "../../src/eval/suite.ts";
import { JUDGE_SYSTEM } from "../../src/eval/judge.ts";
import { act, planningText, systemText, type Reply, type ScriptedModel } from "./scripted-model.ts";

const click = (x: number, y: number, what: string) => act("click", { x, y }, what);
const type = (text: string) => act("type", { text }, `Typing ${text}`);
const done = (answer: string) => act("done", { answer }, "Done");

/** A day's button in date.html's calendar: the grid starts on Monday, 50 px a column and 40 px a row. */
function day(offset: number, d: number): Reply {
  const cell = offset + d - 1;
  return click(40 + 50 * (cell % 7) + 23, 160 + 40 * Math.floor(cell / 7) + 18, `Picking day ${d}`);
}
/** December 2026 starts on a Tuesday, January 2027 on a Friday. */
const DECEMBER = 1;
const JANUARY = 4;

export const WEB_SOLUTIONS: Record<string, Reply[]> = {
  "table-price": [done("The Chair costs $74.90.")],
  "table-cheapest": [done("The Lamp, at $24.50.")],
  "table-stock": [done("7 shelves are in stock.")],
  "table-out-of-stock": [done("2 products: the Desk and the Rug.")],
  "table-sort": [click(300, 80, "Sorting by price"), done("The products are sorted by price, the Desk first.")],
  "table-judged": [done("The Desk.")],
  "form-contact": [click(190, 100, "Name"), type("Ada Lovelace"), click(190, 160, "Email"), type("ada@example.org"), click(100, 320, "Send"), done("Sent.")],
  "form-thanks": [click(190, 100, "Name"), type("Grace"), click(190, 240, "Message"), type("Hello from the suite"), click(100, 320, "Send"), done("Sent.")],
  "form-missing-name": [click(100, 320, "Send"), done("The form says: Please enter your name.")],
  "date-christmas": [click(120, 80, "Opening the calendar"), day(DECEMBER, 24), done("Booked for 24 December 2026.")],
  "date-new-year-eve": [click(120, 80, "Opening the calendar"), day(DECEMBER, 31), done("Booked for 31 December 2026.")],
  "date-next-month": [click(120, 80, "Opening the calendar"), click(363, 130, "Next month"), day(JANUARY, 15), done("Booked for 15 January 2027.")],
  "menu-export": [click(85, 80, "File"), click(110, 160, "Export"), done("Exported.")],
  "menu-preferences": [click(185, 80, "Edit"), click(210, 160, "Preferences"), done("Preferences are open.")],
  "menu-print": [click(85, 80, "File"), click(110, 200, "Print"), done("Printed.")],
  "shadow-toggle": [click(190, 100, "Dark mode"), done("Dark mode is on.")],
  "shadow-nickname": [click(190, 160, "Nickname"), type("owl"), done("Typed.")],
  "frame-word": [click(190, 100, "Favourite word"), type("inside"), done("Typed.")],
  "frame-join": [click(120, 160, "Join"), done("Joined.")],
  "login-balance": [click(190, 100, "User name"), type("demo"), click(190, 160, "Password"), type("hunter2"), click(100, 220, "Sign in"), done("Your balance is $1,234.56.")],
  "login-wrong": [click(190, 100, "User name"), type("demo"), click(190, 160, "Password"), type("letmein"), click(100, 220, "Sign in"), done("The page says the user name or password is incorrect.")],
  "download-report": [click(190, 100, "Download"), done("Downloaded the quarterly report.")],
  "download-invoice": [click(190, 160, "Download"), done("Downloaded the invoice.")],
  "upload-notes": [act("upload", { name: "notes.txt", x: 240, y: 100 }, "Choosing notes.txt"), click(100, 180, "Upload"), done("Uploaded notes.txt.")],
  "settings-newsletter": [click(52, 92, "Newsletter"), click(100, 240, "Save"), done("Saved.")],
  "settings-pro": [click(52, 172, "Pro"), click(100, 240, "Save"), done("Saved.")],
  "search-kettle": [click(190, 100, "Search box"), type("blue kettle"), act("keypress", { keys: ["Enter"] }, "Searching"), done("Searched.")],
  "search-count": [click(190, 100, "Search box"), type("kettle"), act("keypress", { keys: ["Enter"] }, "Searching"), done("There are 3 results.")],
  "tabs-weight": [click(215, 80, "Specs"), done("It weighs 2.4 kg.")],
  "tabs-rating": [click(335, 80, "Reviews"), done("It is rated 4.6 out of 5.")],
  "dialog-keep": [click(140, 100, "Close account…"), click(120, 243, "Keep it"), done("The account is kept.")],
  "nav-about": [click(140, 100, "About us"), done("The workshop is in Ghent.")],
};

/** Whether the planning text states this task, not only one that begins with its words. */
function statesTask(text: string, task: string): boolean {
  const line = `Task: ${task}`;
  const at = text.indexOf(line);
  return at >= 0 && (text.length === at + line.length || text[at + line.length] === "\n");
}

/** Queues each task's solution once per episode, and a judge that agrees; returns the steps each task takes. */
export function solveWebSuite(model: ScriptedModel, tasks: readonly SuiteTask[], episodes: number): Map<string, number> {
  const steps = new Map<string, number>();
  for (const task of tasks) {
    const solution = WEB_SOLUTIONS[task.id];
    if (!solution) throw new Error(`the solver does not know the task ${task.id}`);
    model.route((r) => statesTask(planningText(r), task.text), ...Array.from({ length: episodes }, () => solution).flat());
    steps.set(task.id, solution.length);
  }
  model.route((r) => systemText(r) === JUDGE_SYSTEM, ...Array.from({ length: episodes }, () => ({ text: JSON.stringify({ success: true, reason: "The answer names the Desk over the products table." }) })));
  return steps;
}
