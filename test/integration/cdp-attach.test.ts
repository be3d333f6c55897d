// Attaching to a browser that is already running (seed 001's CDP targets): a task drives the page
// a DevTools target id names in someone else's Chromium — here one the test starts with a
// remote-debugging port — and leaves that browser and its pages open when it ends.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply, TasksReply } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { openStream } from "../support/sse.ts";
import { startRemote } from "../support/remote-chromium.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let chrome: ChildProcess;
let devtools: string;
let app: TestApp;

interface Target {
  id: string;
  type: string;
  url: string;
}
const targets = async () => ((await (await fetch(`${devtools}/json/list`)).json()) as Target[]).filter((t) => t.type === "page");

beforeAll(async () => {
  const remote = await startRemote();
  chrome = remote.process;
  devtools = remote.url;
  // The person has two tabs open; the task is to act in the second.
  for (const page of ["article.html", "form.html"]) await fetch(`${devtools}/json/new?${pages.url(page)}`, { method: "PUT" });
  // Requests may name only the browsers the configuration allows.
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { cdpAllowedUrls: [devtools] } } });
});

afterAll(async () => {
  await app?.close();
  chrome?.kill();
});

async function run(session: string, text: string, body: Record<string, unknown>) {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text, ...body });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  return end;
}

describe("attaching to a running browser", () => {
  it("drives the page with the given target id and leaves the browser and its pages open", async () => {
    const form = (await targets()).find((t) => t.url.endsWith("form.html"))!;
    model.route((r) => planningText(r).includes("Task: press it in my browser"), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }));
    const end = await run("s-cdp", "press it in my browser", { cdp_url: devtools, cdp_target_id: form.id });
    expect(end).toMatchObject({ type: "task.completed", answer: "Pressed." });
    await pages.waitForRecord("clicked");
    // The screenshot the model saw was of that tab.
    const planning = model.requests.find((r) => planningText(r).includes("Task: press it in my browser"))!;
    expect(planningText(planning)).toContain("form.html");
    const after = await targets();
    expect(after.map((t) => t.id)).toContain(form.id);
    expect(after.some((t) => t.url.endsWith("article.html"))).toBe(true);
    expect(chrome.exitCode).toBeNull();
  });

  it("fails with the ids it has when the target id names no page", async () => {
    const end = (await run("s-cdp-missing", "press it somewhere", { cdp_url: devtools, cdp_target_id: "NOPE" })) as Extract<SessionEvent, { type: "task.failed" }>;
    expect(end).toMatchObject({ type: "task.failed", error: { code: "INVALID_TARGET" } });
    expect(end.error.message).toContain("No page with target id NOPE; the browser's pages are");
  });

  it("refuses a cdp_url that is not an http(s) or ws(s) address, or one the configuration does not allow", async () => {
    const reply = await app.api<{ error: { message: string } }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cdp-bad", text: "x", cdp_url: "file:///tmp/sock" });
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toContain("cdp_url: must be an http(s) or ws(s) URL");
    const other = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cdp-other", text: "x", cdp_url: "http://127.0.0.1:1/?token=s3cret" });
    expect(other.status).toBe(403);
    expect(other.json.error).toEqual({ code: "FORBIDDEN", message: "This server may not drive the browser at http://127.0.0.1:1: add it to CDP_ALLOWED_URLS." });
    // A target names a page of a browser; without cdp_url or CDP_URL there is none.
    const lone = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cdp-lone", text: "x", cdp_target_id: "ABC" });
    expect(lone.status).toBe(400);
    expect(lone.json.error).toEqual({ code: "INVALID_BODY", message: "cdp_target_id: names a page of the browser that cdp_url (or CDP_URL) gives, and neither is set." });
  });

  it("drives the page a request names of the browser CDP_URL gives", async () => {
    const configured = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { cdpUrl: devtools } } });
    try {
      const form = (await targets()).find((t) => t.url.endsWith("form.html"))!;
      const clicks = pages.records.filter((r) => r === "clicked").length;
      model.route((r) => planningText(r).includes("Task: press it in the configured browser"), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }));
      const { json } = await configured.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cdp-configured", text: "press it in the configured browser", cdp_target_id: form.id });
      const events = await openStream(configured.url, "s-cdp-configured", 0);
      expect(await events.completes(json.task_id)).toMatchObject({ answer: "Pressed." });
      events.close();
      const { json: stored } = await configured.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
      expect(stored.task.cdp).toEqual({ url: devtools, target_id: form.id });
      // The click landed on that page's button.
      await expect.poll(() => pages.records.filter((r) => r === "clicked").length).toBe(clicks + 1);
    } finally {
      await configured.close();
    }
  });

  it("never acts on EasyAgentCU's own UI, open in the person's browser, nor opens it", async () => {
    const ui = (await (await fetch(`${devtools}/json/new?${app.url}/`, { method: "PUT" })).json()) as Target;
    model.route((r) => planningText(r).includes("Task: press send in the UI"), act("click", { x: 300, y: 300 }, "Pressing send"), act("done", { answer: "Could not." }));
    expect(await run("s-cdp-ui", "press send in the UI", { cdp_url: devtools, cdp_target_id: ui.id })).toMatchObject({ type: "task.completed" });
    const form = (await targets()).find((t) => t.url.endsWith("form.html"))!;
    model.route((r) => planningText(r).includes("Task: open the UI"), act("navigate", { url: `${app.url}/api/sessions` }, "Opening the UI"), act("done", { answer: "Could not." }));
    expect(await run("s-cdp-open-ui", "open the UI", { cdp_url: devtools, cdp_target_id: form.id })).toMatchObject({ type: "task.completed" });
    for (const session of ["s-cdp-ui", "s-cdp-open-ui"]) {
      const [task] = (await app.api<TasksReply>("GET", `/api/sessions/${session}/tasks`)).json.tasks;
      const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${task!.id}`)).json;
      expect(steps[0]!.text).toContain(`EasyAgentCU never acts on its own UI (${new URL(app.url).origin})`);
    }
    expect((await targets()).find((t) => t.id === form.id)?.url).toMatch(/form\.html$/);
  });

  it("lets one task at a time drive a page of that browser", async () => {
    const form = (await targets()).find((t) => t.url.endsWith("form.html"))!;
    model.route((r) => planningText(r).includes("Task: hold the page"), { ...act("done", { answer: "held" }), delayMs: 1500 });
    const first = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cdp-a", text: "hold the page", cdp_url: devtools, cdp_target_id: form.id });
    const second = await app.api<{ error: { code: string } }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cdp-b", text: "me too", cdp_url: devtools, cdp_target_id: form.id });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe("BROWSER_BUSY");
    const events = await openStream(app.url, "s-cdp-a", 0);
    await events.waitForEnd(first.json.task_id);
    events.close();
  });
});
