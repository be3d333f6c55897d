// The Chrome extension (seed 004) loaded unpacked into real headless Chromium, talking to a small
// server of the test's that speaks the extension wire: it says hello with a client id that lasts,
// shows its connection in its popup, runs the action catalog on a background tab of the task's own
// (screenshots and long texts uploaded, clicks and typing through CDP, the DOM when CDP is not
// there), refuses other tabs, closed ones and the server's own pages, runs a repeated action once,
// relays CDP both ways, tells the person's input from the agent's, and reconnects when the server
// comes back.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLICK_ID_ATTR, EXTENSION_ARTIFACTS_PATH, type ExtensionMessage } from "../../src/protocol/extension.ts";
import { launchWithExtension, workerNamed } from "../support/extension-browser.ts";
import { startExtensionPeer, type ExtensionPeer } from "../support/extension-peer.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";


// The worker's global, as seen from the test's side of `sw.evaluate`.
declare const chrome: {
  runtime: { getManifest(): { name: string } };
  debugger: { attach(target: { tabId: number }, version: string): Promise<void>; detach(target: { tabId: number }): Promise<void> };
  storage: { local: { set(items: object): Promise<void>; get(key: string): Promise<Record<string, unknown>> } };
  tabs: {
    get(id: number): Promise<{ id: number; active: boolean; url?: string; groupId: number }>;
    query(q: object): Promise<{ id: number; url?: string }[]>;
    remove(id: number): Promise<void>;
  };
};

/** Another extension that can hold a tab with the debugger, as DevTools or another tool would. */
function otherDebuggerExtension(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "easyagentcu-other-debugger-"));
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "Other debugger", version: "1.0", permissions: ["debugger"], background: { service_worker: "background.js" } }));
  writeFileSync(path.join(dir, "background.js"), "// Driven by the test through evaluate.\n");
  return dir;
}

let peer: ExtensionPeer;
let pages: FixtureServer;
let context: BrowserContext;
let worker: Worker;
let otherWorker: Worker;

beforeAll(async () => {
  [peer, pages] = await Promise.all([startExtensionPeer(), startFixtureServer()]);
  context = await launchWithExtension([otherDebuggerExtension()]);
  [worker, otherWorker] = await Promise.all([workerNamed(context, "EasyAgentCU"), workerNamed(context, "Other debugger")]);
  await worker.evaluate(([serverUrl, token]) => chrome.storage.local.set({ serverUrl, token }), [peer.url, peer.token] as const);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await Promise.all([peer?.stop(), pages?.close()]);
});

const is = <T extends ExtensionMessage["type"]>(type: T) => (m: ExtensionMessage): m is Extract<ExtensionMessage, { type: T }> => m.type === type;

async function pageOf(url: string): Promise<Page> {
  await expect.poll(() => context.pages().some((p) => p.url() === url)).toBe(true);
  return context.pages().find((p) => p.url() === url)!;
}

const overlayState = (page: Page) => page.evaluate(() => document.querySelector("easyagentcu-overlay")?.getAttribute("data-state") ?? "idle");

describe("the extension as the server's client", () => {
  let clientId: string;
  let taskTabId: number;
  const task = "task-1";

  /** Sends a click on the task page's button with this id, without waiting for its answer. */
  const sendClick = (id: string) =>
    peer.send({ type: "browser_action", id, actionId: id, taskId: task, clientId, name: "browser_click", params: { tabId: taskTabId, xpath: '//*[@id="go"]' } });
  /**
   * Makes the task page hold each later click of its button `ms` long, after it records `said`
   * (a synchronous request, which gets out before the page stops).
   */
  const holdClicks = (ms: number, said: string) =>
    peer.cdp(task, "Runtime.evaluate", {
      expression: `document.getElementById('go').addEventListener('click', () => { const x = new XMLHttpRequest(); x.open('POST', '/record', false); x.send(${JSON.stringify(said)}); const end = Date.now() + ${ms}; while (Date.now() < end); }); 0`,
    });

  it("says hello with a lasting client id, then sends the browser's full state", async () => {
    const hello = await peer.waitFor(is("hello"));
    expect(hello.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(hello.version).toBe("0.1.0");
    clientId = hello.clientId;
    expect((await worker.evaluate(() => chrome.storage.local.get("clientId"))).clientId).toBe(clientId);
    const sync = await peer.waitFor(is("full_state_sync"));
    expect(peer.messages.indexOf(hello)).toBeLessThan(peer.messages.indexOf(sync));
    expect(sync.snapshot.windows.length).toBeGreaterThan(0);
    expect(sync.snapshot.tabs.length).toBeGreaterThan(0);
  });

  it("shows the connection, the settings and the client id in its popup; saving them reconnects", async () => {
    const popup = await context.newPage();
    await popup.goto(new URL("popup/popup.html", worker.url()).toString());
    await expect.poll(() => popup.locator("#state").textContent()).toContain("Connected");
    expect(await popup.locator("#clientId").textContent()).toBe(clientId);
    expect(await popup.locator("#serverUrl").inputValue()).toBe(peer.url);
    const connections = peer.connections;
    const from = peer.messages.length;
    await popup.getByRole("button", { name: "Save and connect" }).click();
    expect((await peer.waitFor(is("hello"), 10_000, from)).clientId).toBe(clientId);
    expect(peer.connections).toBe(connections + 1);
    await expect.poll(() => popup.locator("#state").textContent()).toContain("Connected");
    await popup.close();
  });

  it("opens the task's tab in the background, in its tab group, and reports it", async () => {
    const from = peer.messages.length;
    const started = await peer.action(task, "task_start", { url: pages.url("form.html") });
    expect(started).toMatchObject({ ok: true, status: "success", result: { url: pages.url("form.html") } });
    const result = started.result as { tabId: number; windowId: number; groupId?: number };
    taskTabId = result.tabId;
    expect(result.groupId).toEqual(expect.any(Number));
    const tab = await worker.evaluate((id) => chrome.tabs.get(id), taskTabId);
    expect(tab.active).toBe(false);
    expect(tab.groupId).toBe(result.groupId);
    await peer.waitFor((m) => m.type === "tab_event" && m.event === "created" && m.tab.id === taskTabId, 15_000, from);
    expect(await peer.action(task, "browser_wait_for_loaded", { tabId: taskTabId })).toMatchObject({ ok: true, result: { status: "complete" } });
  });

  it("holds the tab with the debugger and uploads a JPEG screenshot of it", async () => {
    expect(await peer.action(task, "browser_debugger_attach", { tabId: taskTabId })).toMatchObject({ ok: true, result: { attached: true } });
    const shot = await peer.action(task, "browser_screenshot", { tabId: taskTabId });
    expect(shot.ok).toBe(true);
    const { artifactId, url, width, height } = shot.result as { artifactId: string; url: string; width: number; height: number };
    expect(url).toBe(`${peer.url}${EXTENSION_ARTIFACTS_PATH}/${artifactId}`);
    const artifact = peer.artifacts.get(artifactId)!;
    expect(artifact.type).toBe("image/jpeg");
    expect([...artifact.body.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(width).toBeGreaterThan(100);
    expect(height).toBeGreaterThan(100);
    const full = await peer.action(task, "browser_screenshot", { tabId: taskTabId, fullPage: true });
    expect(full).toMatchObject({ ok: true, status: "success", result: { width: expect.any(Number), height: expect.any(Number) } });
  });

  it("indexes the page's elements and clicks the button by its click id through CDP", async () => {
    const index = await peer.action(task, "browser_dom_index", { tabId: taskTabId });
    const elements = (index.result as { elements: { clickId: number; tag: string; text?: string; xpath?: string; bbox?: object }[] }).elements;
    const button = elements.find((e) => e.text === "Press me")!;
    expect(button).toMatchObject({ tag: "button", xpath: '//*[@id="go"]', bbox: { x: 100, y: 100, w: 200, h: 60 } });
    const page = await pageOf(pages.url("form.html"));
    expect(await page.evaluate((attr) => document.getElementById("go")!.getAttribute(attr), CLICK_ID_ATTR)).toBe(String(button.clickId));
    const scanned = await peer.action(task, "browser_xpath_scan", { tabId: taskTabId });
    expect((scanned.result as { elements: unknown[] }).elements).toContainEqual(expect.objectContaining({ xpath: '//*[@id="name"]', tag: "input", text: "Name" }));
    const clicked = await peer.action(task, "browser_click", { tabId: taskTabId, clickId: button.clickId });
    expect(clicked).toMatchObject({ ok: true, result: { clicked: true, strategy: "cdp_mouse" } });
    expect(clicked.warnings).toBeUndefined();
    await pages.waitForRecord("clicked");
  });

  it("types into a field through CDP", async () => {
    const typed = await peer.action(task, "browser_type", { tabId: taskTabId, xpath: '//*[@id="name"]', text: "hello" });
    expect(typed).toMatchObject({ ok: true, result: { typed: true, strategy: "cdp_key" } });
    await pages.waitForRecord("typed:hello");
  });

  it("uploads the page's HTML", async () => {
    const html = await peer.action(task, "browser_get_html", { tabId: taskTabId });
    const { artifactId } = html.result as { artifactId: string };
    expect(peer.artifacts.get(artifactId)!.body.toString()).toContain("Press me");
  });

  it("refuses another tab, bad parameters and the server's own pages", async () => {
    const other = await context.newPage();
    await other.goto(pages.url("article.html"));
    const otherTabId = (await worker.evaluate((url) => chrome.tabs.query({ url }), pages.url("article.html")))[0]!.id;
    const refused = await peer.action(task, "browser_click", { tabId: otherTabId, xpath: "//a" });
    expect(refused).toMatchObject({ ok: false, error: { code: "INVALID_TASK_TAB", retryable: false } });
    expect(refused.error!.message).toContain(`is not task ${task}'s tab`);
    expect((await peer.action("task-unknown", "browser_screenshot", { tabId: taskTabId })).error?.code).toBe("INVALID_TASK_TAB");
    expect((await peer.action(task, "browser_click", { tabId: "first" })).error?.code).toBe("SCHEMA_VALIDATION_FAILED");
    expect((await peer.action("task-own", "task_start", { url: `${peer.url}/` })).error?.code).toBe("OWN_ORIGIN");
    await other.close();
  });

  it("runs an action id once: a repeat is acked and answered with the first result", async () => {
    const before = pages.records.filter((r) => r === "clicked").length;
    const id = "click-once";
    const from = peer.messages.length;
    const click = { tabId: taskTabId, xpath: '//*[@id="go"]' };
    // The page holds the click for 3 s, so the repeat surely arrives while the first runs; then it
    // arrives once more after the first finished.
    await holdClicks(3000, "holding a click");
    sendClick(id);
    sendClick(id);
    const first = await peer.waitFor((m) => m.type === "browser_action_result" && m.id === id, 20_000, from);
    const byFirstResult = peer.messages.slice(from);
    expect(byFirstResult.filter((m) => m.type === "ack" && m.id === id)).toHaveLength(2);
    const again = await peer.action(task, "browser_click", click, id);
    expect(again).toEqual(first);
    expect(peer.messages.slice(from).filter((m) => m.type === "ack" && m.id === id)).toHaveLength(3);
    expect(peer.messages.slice(from).filter((m) => m.type === "browser_action_result" && m.id === id)).toHaveLength(2);
    await expect.poll(() => pages.records.filter((r) => r === "clicked").length).toBe(before + 1);
  });

  it("relays CDP commands to the task's tab and its events back", async () => {
    const evaluated = await peer.cdp(task, "Runtime.evaluate", { expression: "document.title", returnByValue: true });
    expect(evaluated).toEqual({ result: { result: { type: "string", value: "Fixture: form" } } });
    expect((await peer.cdp(task, "No.suchMethod")).error).toBeTruthy();
    const from = peer.messages.length;
    await peer.cdp(task, "Page.enable");
    const navigated = await peer.cdp(task, "Page.navigate", { url: pages.url("form.html?again") });
    expect(navigated.result).toMatchObject({ frameId: expect.any(String) });
    await peer.waitFor((m) => m.type === "cdp_event" && m.taskId === task && m.method === "Page.loadEventFired", 10_000, from);
    expect(peer.messages.slice(from).some((m) => m.type === "cdp_event" && m.method === "Page.frameNavigated")).toBe(true);
  });

  it("returns the reader text inline, as an artifact past 256 KB, and refuses it past 2 MB", async () => {
    const small = await peer.action(task, "browser_readability_extract", { tabId: taskTabId });
    expect(small).toMatchObject({ ok: true, result: { title: "Fixture: form", truncated: false } });
    expect((small.result as { text: string }).text).toContain("Waiting");
    const fill = (bytes: number) => peer.cdp(task, "Runtime.evaluate", { expression: `document.getElementById("status").textContent = "word ".repeat(${bytes / 5}); 0` });
    await fill(300 * 1024);
    const long = await peer.action(task, "browser_readability_extract", { tabId: taskTabId });
    expect(long).toMatchObject({ ok: true, result: { text: "", truncated: true, artifactId: expect.any(String) } });
    const { artifactId, contentLengthBytes } = long.result as { artifactId: string; contentLengthBytes: number };
    expect(contentLengthBytes).toBeGreaterThanOrEqual(300 * 1024 - 10);
    expect(peer.artifacts.get(artifactId)!.body.byteLength).toBe(contentLengthBytes);
    await fill(2.5 * 1024 * 1024);
    expect(await peer.action(task, "browser_readability_extract", { tabId: taskTabId })).toMatchObject({ ok: false, error: { code: "READABILITY_TOO_LARGE", retryable: false } });
    await peer.cdp(task, "Page.reload");
    expect(await peer.action(task, "browser_wait_for_loaded", { tabId: taskTabId })).toMatchObject({ ok: true });
  });

  it("raises a takeover for the person's click while the agent works, never for the agent's own input", async () => {
    const page = await pageOf(pages.url("form.html?again"));
    const other = await context.newPage();
    await other.goto(pages.url("links.html"));
    const otherTabId = (await worker.evaluate((url) => chrome.tabs.query({ url }), pages.url("links.html")))[0]!.id;
    peer.send({ type: "task_state", taskId: task, tabId: otherTabId, state: "ongoing" });
    peer.send({ type: "task_state", taskId: task, tabId: taskTabId, state: "ongoing" });
    await expect.poll(() => overlayState(page)).toBe("ongoing");
    // A new document in the task's tab shows the state again; no other tab ever shows it.
    await peer.cdp(task, "Page.reload");
    expect(await peer.action(task, "browser_wait_for_loaded", { tabId: taskTabId })).toMatchObject({ ok: true });
    await expect.poll(() => overlayState(page)).toBe("ongoing");
    expect(await overlayState(other)).toBe("idle");
    await other.close();
    const from = peer.messages.length;
    const records = pages.records.length;

    // The agent's click, relayed as raw CDP: the page gets it, and it is not a takeover.
    for (const type of ["mousePressed", "mouseReleased"]) {
      expect(await peer.cdp(task, "Input.dispatchMouseEvent", { type, x: 200, y: 130, button: "left", clickCount: 1 })).toEqual({ result: {} });
    }
    await expect.poll(() => pages.records.slice(records)).toContain("clicked");
    expect(await peer.action(task, "browser_click", { tabId: taskTabId, xpath: '//*[@id="go"]' })).toMatchObject({ ok: true });
    // Past the grace period after the agent's input, still no takeover.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(peer.messages.slice(from).filter(is("takeover"))).toEqual([]);
    expect(await overlayState(page)).toBe("ongoing");

    // The person clicks in the page.
    await page.mouse.click(500, 400);
    expect(await peer.waitFor(is("takeover"), 15_000, from)).toEqual({ type: "takeover", taskId: task });
    await expect.poll(() => overlayState(page)).toBe("takeover");
    await page.mouse.click(520, 420);
    await page.locator("easyagentcu-overlay button.resume").click();
    expect(await peer.waitFor(is("overlay_command"), 15_000, from)).toEqual({ type: "overlay_command", taskId: task, command: "resume" });
    expect(peer.messages.slice(from).filter(is("takeover"))).toHaveLength(1);
    peer.send({ type: "task_state", taskId: task, tabId: taskTabId, state: "idle" });
    await expect.poll(() => overlayState(page)).toBe("idle");
  });

  it("raises a takeover for the person's click in a frame of another site inside the page, never for the agent's", async () => {
    await peer.cdp(task, "Page.navigate", { url: pages.url("iframe.html") });
    expect(await peer.action(task, "browser_wait_for_loaded", { tabId: taskTabId })).toMatchObject({ ok: true });
    const page = await pageOf(pages.url("iframe.html"));
    // A sign-in or payment form often lives in a frame of another site: localhost is not 127.0.0.1.
    const inner = pages.url("iframe-inner.html").replace("127.0.0.1", "localhost");
    await page.evaluate((src) => void (document.querySelector("iframe")!.src = src), inner);
    await expect.poll(() => page.frames().some((f) => f.url() === inner)).toBe(true);
    const frame = page.frames().find((f) => f.url() === inner)!;
    await frame.waitForLoadState("load");
    const box = (await frame.locator("#inner-button").boundingBox())!;
    const [x, y] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
    peer.send({ type: "task_state", taskId: task, tabId: taskTabId, state: "ongoing" });
    await expect.poll(() => overlayState(page)).toBe("ongoing");
    const from = peer.messages.length;
    const records = pages.records.length;

    // The agent's click on the frame's button: the frame reports it, the worker knows it for the
    // agent's. Chrome routes a click into another site's frame only once that frame is drawn, which
    // a busy machine can delay past the load: the click is sent again until the frame has one, as
    // the agent's hands would after a click with no effect.
    const agentClick = async () => {
      const seen = pages.records.slice(records);
      if (!seen.includes("inner-clicked")) {
        for (const type of ["mousePressed", "mouseReleased"]) await peer.cdp(task, "Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
      }
      return seen;
    };
    await expect.poll(agentClick, { interval: 1_000 }).toContain("inner-clicked");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(peer.messages.slice(from).filter(is("takeover"))).toEqual([]);
    expect(await overlayState(page)).toBe("ongoing");

    // The person clicks the same button.
    await page.mouse.click(x, y);
    expect(await peer.waitFor(is("takeover"), 15_000, from)).toEqual({ type: "takeover", taskId: task });
    await expect.poll(() => overlayState(page)).toBe("takeover");
    peer.send({ type: "task_state", taskId: task, tabId: taskTabId, state: "idle" });
    await expect.poll(() => overlayState(page)).toBe("idle");
    // Back to the form the next tests use.
    await peer.cdp(task, "Page.navigate", { url: pages.url("form.html?again") });
    expect(await peer.action(task, "browser_wait_for_loaded", { tabId: taskTabId })).toMatchObject({ ok: true });
  });

  it("clicks through the DOM with a warning once the debugger let go, unless CDP was asked for", async () => {
    expect(await peer.action(task, "task_stop", {})).toMatchObject({ ok: true, result: { stopped: true } });
    const before = pages.records.filter((r) => r === "clicked").length;
    const clicked = await peer.action(task, "browser_click", { tabId: taskTabId, xpath: '//*[@id="go"]' });
    expect(clicked).toMatchObject({ ok: true, result: { clicked: true, strategy: "dom_click" } });
    expect(clicked.warnings?.[0]).toContain("not attached");
    await expect.poll(() => pages.records.filter((r) => r === "clicked").length).toBe(before + 1);
    expect(await peer.action(task, "browser_click", { tabId: taskTabId, xpath: '//*[@id="go"]', strategy: "cdp_mouse" })).toMatchObject({ ok: false, error: { code: "CDP_UNAVAILABLE", retryable: true } });
    const typed = await peer.action(task, "browser_type", { tabId: taskTabId, xpath: '//*[@id="name"]', text: "dom" });
    expect(typed).toMatchObject({ ok: true, result: { strategy: "dom_input" } });
    await pages.waitForRecord("typed:dom");
    expect(await peer.action(task, "browser_debugger_attach", { tabId: taskTabId })).toMatchObject({ ok: true });
  });

  it("answers TASK_TAB_CLOSED once the person closed the task's tab, and a new task_start recovers", async () => {
    const from = peer.messages.length;
    await worker.evaluate((id) => chrome.tabs.remove(id), taskTabId);
    expect(await peer.waitFor(is("cdp_detached"), 15_000, from)).toMatchObject({ taskId: task });
    await peer.waitFor((m) => m.type === "tab_event" && m.event === "removed" && m.tabId === taskTabId, 15_000, from);
    const closed = await peer.action(task, "browser_screenshot", { tabId: taskTabId });
    expect(closed).toMatchObject({ ok: false, error: { code: "TASK_TAB_CLOSED" } });
    const restarted = await peer.action(task, "task_start", { url: pages.url("form.html"), reuseExistingTab: true });
    const { tabId } = restarted.result as { tabId: number };
    expect(tabId).not.toBe(taskTabId);
    taskTabId = tabId;
    expect(await peer.action(task, "browser_wait_for_loaded", { tabId })).toMatchObject({ ok: true });
  });

  it("works beside another debugger on the tab (Chrome lets several hold one tab)", async () => {
    // Chrome used to refuse a second debugger ("Another debugger is already attached"), which the
    // extension reports as DEBUGGER_BUSY; Chrome 125+ lets another extension (or DevTools) hold
    // the tab too, and that message now means this extension holds it already.
    await otherWorker.evaluate((tabId) => chrome.debugger.attach({ tabId }, "1.3"), taskTabId);
    expect(await peer.action(task, "browser_debugger_attach", { tabId: taskTabId })).toMatchObject({ ok: true, result: { attached: true } });
    expect(await peer.action(task, "browser_debugger_attach", { tabId: taskTabId })).toMatchObject({ ok: true, result: { attached: true } });
    expect(await peer.action(task, "browser_screenshot", { tabId: taskTabId })).toMatchObject({ ok: true });
    expect(await peer.action(task, "browser_click", { tabId: taskTabId, xpath: '//*[@id="go"]' })).toMatchObject({ ok: true, result: { strategy: "cdp_mouse" } });
    await otherWorker.evaluate((tabId) => chrome.debugger.detach({ tabId }), taskTabId);
  });

  it("reconnects when the server goes away and comes back, with the same client id", async () => {
    const connections = peer.connections;
    await peer.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const from = peer.messages.length;
    await peer.start();
    const hello = await peer.waitFor(is("hello"), 20_000, from);
    expect(hello.clientId).toBe(clientId);
    await peer.waitFor(is("full_state_sync"), 15_000, from);
    expect(peer.connections).toBe(connections + 1);
    // The task's tab is still known after the reconnect.
    expect(await peer.action(task, "browser_dom_index", { tabId: taskTabId })).toMatchObject({ ok: true });
  });

  it("runs a click once across a restart of its worker, and refuses one the stopped worker began and never finished", async () => {
    const clicks = () => pages.records.filter((r) => r === "clicked").length;
    const before = clicks();
    const click = { tabId: taskTabId, xpath: '//*[@id="go"]' };
    const done = await peer.action(task, "browser_click", click, "click-before-restart");
    expect(done).toMatchObject({ ok: true });
    // The next click is held in the page, which says so first; Chrome stops the worker meanwhile,
    // as it may any idle or busy worker.
    await holdClicks(4000, "holding a click across the restart");
    sendClick("click-cut-short");
    await pages.waitForRecord("holding a click across the restart");
    const from = peer.messages.length;
    const other = await context.newPage();
    const devtools = await context.newCDPSession(other);
    await devtools.send("ServiceWorker.enable");
    await devtools.send("ServiceWorker.stopAllWorkers");
    // A tab event wakes the worker, which connects again.
    await other.goto(pages.url("article.html"));
    expect(await peer.waitFor(is("hello"), 20_000, from)).toMatchObject({ clientId });
    await other.close();

    expect(await peer.action(task, "browser_click", click, "click-before-restart")).toEqual(done);
    const cut = await peer.action(task, "browser_click", click, "click-cut-short");
    expect(cut).toMatchObject({ ok: false, error: { code: "ACTION_FAILED", retryable: false, message: expect.stringContaining("restarted while it ran browser_click") } });
    expect(peer.messages.slice(from).some((m) => m.type === "browser_action_result" && m.id === "click-cut-short" && m.ok)).toBe(false);
    await expect.poll(clicks).toBe(before + 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(clicks()).toBe(before + 2);
  });
});
