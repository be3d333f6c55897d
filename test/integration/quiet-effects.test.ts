// An action whose effect the screen does not show still had one: a download the browser started,
// a form posted a moment after the click, a tab that opened, a post with nothing to see. Such a
// click is not repeated — the page's server hears it once — and its step says what it did. A click
// that may pay is never repeated, even when nothing at all shows what it did: the model is told.
// A request counts when it may change something (not a GET, or one the page marks): a page's usual
// polling does not keep a dead button from being pressed again.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

/** Runs a task on `page`; `asked`: how often the page's server was sent `what` (`GET /path`) since it began. */
async function run(task: string, replies: Reply[], page = "quiet-effects.html") {
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...replies);
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const before = pages.requested.length;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url(page) });
  const events = await openStream(app.url, session, 0);
  await events.completes(json.task_id);
  events.close();
  const requests = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { requests, steps: stored.steps, asked: (what: string) => pages.requested.slice(before).filter((r) => r === what).length };
}

/** Time for a repeated click's request to reach the server, had there been one: the page waits a quarter of a second. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 1_000));

const done = act("done", { answer: "ok" });

describe("an effect the screen does not show", () => {
  it("a control inside a shadow root, open or closed, that changes only itself is clicked once", async () => {
    const { steps } = await run("flip both toggles", [act("click", { x: 180, y: 120 }, "Flipping the toggle"), act("click", { x: 180, y: 220 }, "Ticking the box"), done], "shadow-toggles.html");
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "structure" });
    expect(steps[1]?.effect).toMatchObject({ changed: true, retries: 0, seen: "structure" });
  });

  it("a download link clicked once is requested once, and the model is told a download started", async () => {
    const { steps, asked, requests } = await run("get the report", [act("click", { x: 180, y: 120 }, "Downloading the report"), done]);
    await settled();
    expect(asked("GET /files/report.pdf")).toBe(1);
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "download" });
    expect(planningText(requests[1]!)).toContain(`Step 1: click (180, 120) "Downloading the report" → changed ✓ (started a download)`);
  });

  it("a form that a script posts a moment after the click is posted once", async () => {
    const { steps, asked } = await run("order tea", [act("click", { x: 180, y: 220 }, "Ordering tea"), done]);
    await settled();
    expect(asked("POST /order")).toBe(1);
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "request" });
  });

  it("a target=_blank link opens one tab, even one that looks like the page it came from", async () => {
    // The start page's own load, then the one tab the link opened.
    const { steps, asked } = await run("open the same page", [act("click", { x: 180, y: 320 }, "Opening the page again"), done]);
    await settled();
    expect(asked("GET /quiet-effects.html")).toBe(2);
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "new_tab" });
  });

  it("a button whose click changes nothing visible but posts is posted once", async () => {
    const { steps, asked } = await run("keep it", [act("click", { x: 180, y: 420 }, "Keeping it"), done]);
    await settled();
    expect(asked("POST /keep")).toBe(1);
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "request" });
  });

  it("a Pay button whose effect nothing shows is pressed once, and the model is told it was not pressed again", async () => {
    const before = pages.records.length;
    const { steps, requests } = await run("pay for it", [act("click", { x: 180, y: 520 }, "Paying"), done]);
    await settled();
    expect(pages.records.slice(before).filter((r) => r === "paid")).toEqual(["paid"]);
    expect(steps[0]?.effect).toMatchObject({ changed: false, retries: 0, seen: "none", note: expect.stringContaining('not clicked again: it presses "Pay now", which may pay') });
    expect(planningText(requests[1]!)).toContain(`Step 1: click (180, 520) "Paying" → no change ✗ (not clicked again: it presses "Pay now", which may pay`);
  });

  it("a button that asks to confirm is pressed once: the dialog was its effect", async () => {
    const before = pages.records.length;
    const { steps } = await run("ask me", [act("click", { x: 180, y: 620 }, "Asking"), done]);
    await settled();
    expect(pages.records.slice(before).filter((r) => r === "asked")).toEqual(["asked"]);
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "dialog" });
  });

  it("a GET the page marks as the click's effect (X-Agent-Effect) is sent once", async () => {
    const { steps, asked } = await run("refresh it", [act("click", { x: 180, y: 720 }, "Refreshing"), done]);
    await settled();
    expect(asked("GET /mark")).toBe(1);
    expect(steps[0]?.effect).toMatchObject({ changed: true, retries: 0, seen: "request" });
  });

  it("a dead button is still pressed again when all the page sent meanwhile were its usual GETs", async () => {
    const before = pages.records.length;
    const { steps } = await run("press nothing", [act("click", { x: 380, y: 120 }, "Pressing Nothing"), done], "quiet-effects.html?poll");
    expect(pages.records.slice(before).filter((r) => r === "nothing")).toHaveLength(4);
    expect(steps[0]?.effect).toMatchObject({ changed: false, retries: 3, seen: "none" });
  });
});
