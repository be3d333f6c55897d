// The person's own Chrome as a computer (seed 004), end to end: the real server, the extension
// loaded unpacked into real headless Chromium and connected over its WebSocket, and a planner
// driving a local page in a background tab of the task's own (never a blocked domain), and the
// browser tool agent reading that tab's ARIA tree and acting by its refs. A click of the person's on that
// tab takes the task over until Resume in the page's overlay; a task tab the person closes is
// confirmed closed (TASK_TAB_CLOSED) and opened again; actions on any other tab are refused; the
// extension comes back when the server restarts; and without an extension a task says how to
// connect one.
import type { BrowserContext, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../src/core/errors.ts";
import type { ActionRecord } from "../../src/computers/extension/scheduler.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import { ALLOW_EVERYTHING, startApp, type TestApp } from "../support/app.ts";
import { chromeConnectedTo } from "../support/extension-browser.ts";
import { gate } from "../support/gate.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// The worker's global, as seen from the test's side of `evaluate`.
declare const chrome: {
  storage: { local: { set(items: object): Promise<void>; get(key: string): Promise<Record<string, unknown>> } };
  tabs: {
    query(q: object): Promise<{ id: number; active: boolean; url?: string; groupId: number }[]>;
    remove(id: number): Promise<void>;
    create(p: object): Promise<{ id: number }>;
  };
  tabGroups: { get(id: number): Promise<{ title?: string }> };
  debugger: { sendCommand(...args: unknown[]): Promise<unknown> };
};

const { model, pages } = useWorld({ app: false });
let app: TestApp;
let context: BrowserContext;
let worker: Worker;

beforeAll(async () => {
  // Deleting asks, as it does by default, for the approval test; the rest is allowed.
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { approvals: { ...ALLOW_EVERYTHING, delete: "ask" }, network: { blockedDomains: ["blocked.example"] } } });
  ({ context, worker } = await chromeConnectedTo(app));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await app?.close();
});

async function extensions(): Promise<{ clientId: string; name: string }[]> {
  return (await app.api<{ extensions: { clientId: string; name: string }[] }>("GET", "/api/extension/extension-list")).json.extensions;
}

/** Slows every command of the extension's debugger by `ms`, as a busy machine does; the answer undoes it. */
async function slowDebugger(ms: number): Promise<() => Promise<void>> {
  await worker.evaluate((ms) => {
    const send = chrome.debugger.sendCommand;
    const slow = (...args: unknown[]) => new Promise((resolve) => setTimeout(resolve, ms)).then(() => send.apply(chrome.debugger, args));
    Object.assign(globalThis, { fastSendCommand: send });
    chrome.debugger.sendCommand = slow;
  }, ms);
  return () => worker.evaluate(() => void (chrome.debugger.sendCommand = (globalThis as unknown as { fastSendCommand: typeof chrome.debugger.sendCommand }).fastSendCommand));
}

async function actions(taskId: string): Promise<ActionRecord[]> {
  return (await app.api<{ actions: ActionRecord[] }>("GET", `/api/extension/actions?task_id=${taskId}`)).json.actions;
}

async function send(session: string, text: string, page: string, more: Record<string, unknown> = {}): Promise<string> {
  const { status, json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", computer: "extension", session_id: session, text, start_url: pages.url(page), ...more });
  expect(status).toBe(202);
  return json.task_id;
}

// The browser tool agent's model and its element chooser, as in tool-agent.test.ts.
const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const chooserOn = (page: string) => (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes(page);

/** The ref a tree gives an element, as a model reading it would find it. */
function refIn(tree: string, role: string, name: string): string {
  const ref = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(tree)?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in the tree`);
  return ref;
}
const choose = (role: string, name: string, method: string, value?: string): Responder => (r) => ({
  text: JSON.stringify({ ref: refIn(userText(r), role, name), method, ...(value === undefined ? {} : { value }) }),
});

/** The task's tab as the test's own connection to the browser sees it. */
async function tabPage(path: string): Promise<Page> {
  await expect.poll(() => context.pages().some((p) => p.url().endsWith(path)), { timeout: 15_000 }).toBe(true);
  return context.pages().find((p) => p.url().endsWith(path))!;
}

describe("the person's Chrome through the extension", () => {
  it("runs a planner's task in a background tab of its own, every action acked and recorded", async () => {
    const task = "press the button in my browser";
    model.route((r) => planningText(r).includes(`Task: ${task}`), act("click", { x: 200, y: 130 }, "Pressing"), act("done", { answer: "Pressed it." }, "Done"));
    const events = await openStream(app.url, "s-ext-run", 0);
    const taskId = await send("s-ext-run", task, "form.html");
    expect(await events.completes(taskId, 60_000)).toMatchObject({ answer: "Pressed it." });
    events.close();
    await pages.waitForRecord("clicked");

    const [tab] = (await worker.evaluate(() => chrome.tabs.query({}))).filter((t) => t.url === pages.url("form.html"));
    expect(tab!.active).toBe(false);
    expect(await worker.evaluate((id) => chrome.tabGroups.get(id), tab!.groupId)).toMatchObject({ title: "EasyAgentCU" });
    const lifecycle = (await actions(taskId)).map((a) => `${a.name}:${a.phase}`);
    expect(lifecycle).toEqual([
      "task_start:start",
      "task_start:success",
      "browser_wait_for_loaded:start",
      "browser_wait_for_loaded:success",
      "browser_debugger_attach:start",
      "browser_debugger_attach:success",
      "task_stop:start",
      "task_stop:success",
    ]);
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.task).toMatchObject({ computer: "extension", status: "completed" });
    expect(json.steps[0]?.screenshot).toBeTruthy();
  });

  it("refuses an action on any tab but the task's own", async () => {
    const connection = app.system.extensions.registry.bind("task_other_tab");
    try {
      const { result } = await app.system.extensions.scheduler.run(connection, "task_other_tab", "task_start", { url: pages.url("links.html") });
      const other = await worker.evaluate(() => chrome.tabs.create({ url: "about:blank", active: false }));
      const refused = await app.system.extensions.scheduler.run(connection, "task_other_tab", "browser_click", { tabId: other.id, xpath: "//a" }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: "INVALID_TASK_TAB" });
      await app.system.extensions.scheduler.run(connection, "task_other_tab", "task_stop", { closeTab: true });
      expect(result.tabId).not.toBe(other.id);
    } finally {
      app.system.extensions.registry.unbind("task_other_tab");
    }
  });

  it("pauses when the person clicks in the task's tab, and goes on after Resume in the page", async () => {
    const task = "wait in my browser while I click";
    const { held, open: release } = gate();
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("wait", { ms: 100 }, "Waiting"), until: held },
      act("done", { answer: "Done after you." }, "Done"),
    );
    const events = await openStream(app.url, "s-ext-takeover", 0);
    const taskId = await send("s-ext-takeover", task, "input-lab.html");
    const page = await tabPage("input-lab.html");
    await expect.poll(() => page.evaluate(() => document.querySelector("easyagentcu-overlay")?.getAttribute("data-state")), { timeout: 15_000 }).toBe("ongoing");

    await page.mouse.click(40, 40);
    await expect.poll(() => page.evaluate(() => document.querySelector("easyagentcu-overlay")?.getAttribute("data-state"))).toBe("takeover");
    release();
    await events.waitFor((e) => e.type === "task.takeover" && e.task_id === taskId);
    expect((await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json.task.status).toBe("takeover");

    await page.getByRole("button", { name: "Resume" }).click();
    await events.completes(taskId, 30_000);
    events.close();
    const last = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`)).at(-1)!;
    expect(userText(last)).toContain("The person took over the screen and handed it back");
  });

  it("shows the agent at work again when the person presses Resume before the agent stopped for them", async () => {
    const task = "wait in my browser while I change my mind";
    const { held, open: release } = gate();
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("wait", { ms: 100 }, "Waiting"), until: held },
      act("done", { answer: "Done without you." }, "Done"),
    );
    const events = await openStream(app.url, "s-ext-mind", 0);
    const taskId = await send("s-ext-mind", task, "input-lab.html?mind");
    const page = await tabPage("input-lab.html?mind");
    const state = () => page.evaluate(() => document.querySelector("easyagentcu-overlay")?.getAttribute("data-state"));
    await expect.poll(state, { timeout: 15_000 }).toBe("ongoing");
    await expect.poll(() => model.requests.some((r) => planningText(r).includes(`Task: ${task}`)), { timeout: 15_000 }).toBe(true);

    // The person clicks in the tab while the model thinks, and hands it back at once.
    await page.mouse.click(40, 40);
    await expect.poll(state).toBe("takeover");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect.poll(state).toBe("ongoing");
    release();
    expect(await events.completes(taskId, 30_000)).toMatchObject({ answer: "Done without you." });
    events.close();
    expect(events.events.some((e) => e.type === "task.takeover")).toBe(false);
  });

  it("hides the overlay while an approval waits for the person, and shows the agent at work again once they allow it", async () => {
    const task = "delete my account in my browser";
    const { held, open: release } = gate();
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      act("click", { x: 180, y: 120 }, "Deleting the account"),
      { ...act("done", { answer: "Deleted." }, "Done"), until: held },
    );
    const events = await openStream(app.url, "s-ext-approval", 0);
    const taskId = await send("s-ext-approval", task, "approvals.html");
    const page = await tabPage("approvals.html");
    const state = () => page.evaluate(() => document.querySelector("easyagentcu-overlay")?.getAttribute("data-state") ?? "hidden");
    const asked = await events.waitFor((e) => e.type === "approval.requested", 30_000);
    await expect.poll(state).toBe("hidden");
    expect((await app.api("POST", "/api/chat/approve", { task_id: taskId, approval_id: (asked as { approval: { id: string } }).approval.id, approved: true })).status).toBe(202);
    await expect.poll(state).toBe("ongoing");
    release();
    expect(await events.completes(taskId, 30_000)).toMatchObject({ answer: "Deleted." });
    events.close();
    await pages.waitForRecord("deleted");
  });

  it("never opens a BLOCKED_DOMAINS site there, by address or as the start page, though nothing fences the person's Chrome", async () => {
    const task = "open the blocked site in my browser";
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      act("navigate", { url: "http://www.blocked.example/page" }, "Opening the site"),
      act("done", { answer: "It is blocked." }, "Done"),
    );
    const events = await openStream(app.url, "s-ext-blocked", 0);
    const taskId = await send("s-ext-blocked", task, "form.html?blocked");
    expect(await events.completes(taskId, 30_000)).toMatchObject({ answer: "It is blocked." });
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json;
    expect(steps[0]!.text).toContain("The agent never opens http://www.blocked.example: it is on the block-list (BLOCKED_DOMAINS).");

    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", computer: "extension", session_id: "s-ext-blocked", text: "start there", start_url: "http://blocked.example/" });
    expect(await events.waitForEnd(json.task_id, 30_000)).toMatchObject({ type: "task.failed", error: { code: "DENIED" } });
    events.close();
  });

  it("opens the task's tab again when the person closes it, and the task goes on there", async () => {
    const task = "press the button even if I close the tab";
    const { held, open: release } = gate();
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("click", { x: 200, y: 130 }, "Pressing"), until: held },
      act("done", { answer: "Pressed it again." }, "Done"),
    );
    const events = await openStream(app.url, "s-ext-closed", 0);
    const taskId = await send("s-ext-closed", task, "form.html?closed");
    await tabPage("form.html?closed");
    // Closed while the agent waits for its model, as a person would between two steps.
    await expect.poll(() => model.requests.some((r) => planningText(r).includes(`Task: ${task}`)), { timeout: 15_000 }).toBe(true);
    const [tab] = (await worker.evaluate(() => chrome.tabs.query({}))).filter((t) => t.url === pages.url("form.html?closed"));
    await worker.evaluate((id) => chrome.tabs.remove(id), tab!.id);
    await expect
      .poll(async () => (await actions(taskId)).map((a) => `${a.name}:${a.phase}${a.code ? `:${a.code}` : ""}`), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(["browser_wait_for_loaded:error:TASK_TAB_CLOSED"]));
    await expect.poll(async () => (await actions(taskId)).filter((a) => a.name === "browser_debugger_attach" && a.phase === "success").length, { timeout: 15_000 }).toBe(2);
    release();
    expect(await events.completes(taskId, 60_000)).toMatchObject({ answer: "Pressed it again." });
    events.close();
    await pages.waitForRecord("clicked");
  });

  it("runs the browser tool agent there too: it reads the tab's ARIA tree and acts by the refs in it", async () => {
    const goal = "press the button and type Ada in my browser";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      calls(["act", { action: "click the Press me button" }]),
      calls(["act", { action: "type Ada into the Name field" }]),
      calls(["close", { reasoning: "Pressed and typed.", taskComplete: true }]),
    );
    model.route(chooserOn("form.html?tools"), choose("button", "Press me", "click"), choose("textbox", "Name", "fill", "Ada"));
    const before = pages.records.length;
    const events = await openStream(app.url, "s-ext-tools", 0);
    const taskId = await send("s-ext-tools", goal, "form.html?tools", { agent_mode: "dom" });
    expect(await events.completes(taskId, 60_000)).toMatchObject({ answer: "Pressed and typed." });
    events.close();
    // The page in the person's Chrome was pressed and typed into by this task.
    await expect.poll(() => pages.records.slice(before)).toEqual(["clicked", "typed:Ada"]);

    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.task).toMatchObject({ computer: "extension", mode: "dom", status: "completed" });
    expect(json.steps.map((s) => [s.tool?.name, s.tool?.ok])).toEqual([
      ["ariaTree", true],
      ["act", true],
      ["act", true],
      ["close", true],
    ]);
    // The tree the model got back, read from the extension's tab, names the button and the field
    // by refs, and those refs are what the click and the typing went to. (Read from the tree, not
    // fixed: here they come as f1e1…, not the embedded browser's e1….)
    const requests = model.requests.filter(agentOf(goal));
    const reply = requests[1]!.body.messages.at(-1) as unknown as { role: string; content: string };
    expect(reply.role).toBe("tool");
    const [head, ...view] = reply.content.split("\n");
    expect(JSON.parse(head!)).toMatchObject({ ok: true });
    const tree = view.join("\n");
    expect(tree).toContain('button "Press me"');
    expect(json.steps[1]!.tool!.output).toMatchObject({ method: "click", ref: refIn(tree, "button", "Press me") });
    expect(json.steps[2]!.tool!.output).toMatchObject({ method: "fill", ref: refIn(tree, "textbox", "Name") });
  });

  it("takes the task up again when the extension reconnects in the middle of it", async () => {
    const task = "press the button while my extension reconnects";
    const { held, open: release } = gate();
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("click", { x: 200, y: 130 }, "Pressing"), until: held },
      act("done", { answer: "Pressed it after the reconnect." }, "Done"),
    );
    const events = await openStream(app.url, "s-ext-reconnect", 0);
    const before = pages.records.filter((r) => r === "clicked").length;
    const taskId = await send("s-ext-reconnect", task, "form.html?reconnect");
    await expect.poll(() => model.requests.some((r) => planningText(r).includes(`Task: ${task}`)), { timeout: 15_000 }).toBe(true);
    // A slow debugger (a busy machine) draws the tab's return out: the click comes while it is shown afresh.
    const undo = await slowDebugger(150);
    try {
      // Saving the popup's settings makes the worker connect afresh, as a restart of it would.
      const attaches = async () => (await actions(taskId)).filter((a) => a.name === "browser_debugger_attach" && a.phase === "success").length;
      await worker.evaluate(() => chrome.storage.local.set({ savedAt: Date.now() }));
      await expect.poll(attaches, { timeout: 20_000 }).toBe(2);
      release();
      expect(await events.completes(taskId, 60_000)).toMatchObject({ answer: "Pressed it after the reconnect." });
      events.close();
    } finally {
      await undo();
    }
    await expect.poll(() => pages.records.filter((r) => r === "clicked").length).toBe(before + 1);
  });

  it("comes back after the server restarts, under the same client id", async () => {
    const [before] = await extensions();
    const port = Number(new URL(app.url).port);
    await app.close();
    app = await startApp({ modelBaseUrl: model.baseUrl, dataDir: app.dataDir, port });
    await expect.poll(async () => (await extensions()).map((e) => e.clientId), { timeout: 30_000 }).toEqual([before!.clientId]);
  }, 60_000);

  it("fails a task plainly when no extension is connected", async () => {
    const alone = await startApp({ modelBaseUrl: model.baseUrl });
    try {
      const events = await openStream(alone.url, "s-ext-offline", 0);
      const { json } = await alone.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", computer: "extension", session_id: "s-ext-offline", text: "anything" });
      const end = await events.waitForEnd(json.task_id, 30_000);
      events.close();
      expect(end).toMatchObject({ type: "task.failed", error: { code: "PLUGIN_OFFLINE" } });
      expect(JSON.stringify(end)).toContain("load it in Chrome");
    } finally {
      await alone.close();
    }
  });
});
