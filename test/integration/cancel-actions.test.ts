// An action stopped is stopped where it acts: once Stop has returned, or the model has been told
// that a tool call ran past its deadline, nothing more of it lands on the page — in the person's own
// Chrome, which stays open after the task, as in the server's browser. A wait of N ms ends N ms after
// the action before it settled, and the action after it lands then. The page (slow-typing.html)
// stamps each change with its own clock, so what landed late is told however late its report arrives.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../../src/computers/browser/find-chromium.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { CHROMIUM_ARGS } from "../support/chromium.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const TOOL_TIMEOUT_MS = 5_000;
const { model, pages } = useWorld({ app: false });
let app: TestApp;
/** The person's own Chrome, with the page open, driven over CDP: it stays open when the task ends. */
let chrome: ChildProcess;
let devtools: string;

beforeAll(async () => {
  const profile = await mkdtemp(path.join(tmpdir(), "easyagentcu-their-chrome-"));
  chrome = spawn(findChromium(process.env.CHROME_PATH), ["--headless", "--no-sandbox", ...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  devtools = await new Promise<string>((resolve, reject) => {
    let err = "";
    chrome.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const port = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(err)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    chrome.once("exit", (code) => reject(new Error(`chromium exited with ${code}: ${err}`)));
  });
  app = await startApp({
    modelBaseUrl: model.baseUrl,
    config: { model: { timeoutMs: 60_000 }, agent: { toolTimeoutMs: TOOL_TIMEOUT_MS }, browser: { cdpAllowedUrls: [devtools] } },
  });
});

afterAll(async () => {
  await app?.close();
  chrome?.kill();
});

/** About twenty seconds of typing at the page's 15 ms a key. */
const LONG_TEXT = "the quick brown fox jumps over the lazy dog ".repeat(30);

const send = (session_id: string, text: string, extra: Record<string, unknown> = {}) =>
  app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id, text, start_url: pages.url("slow-typing.html"), ...extra });

/** The field's lengths as the page saw them change, each with the page's time. */
function lengths(): { length: number; at: number }[] {
  return pages.records.flatMap((r) => {
    const m = /^len:(\d+)@([\d.]+)$/.exec(r);
    return m ? [{ length: Number(m[1]), at: Number(m[2]) }] : [];
  });
}

/** The page's times of the presses of its button. */
function presses(): number[] {
  return pages.records.flatMap((r) => {
    const m = /^pressed@([\d.]+)$/.exec(r);
    return m ? [Number(m[1])] : [];
  });
}

describe("a stopped action leaves no effect after it", () => {
  it("Stop during a slow typing in the person's Chrome: once Stop has returned, their field takes no more keys", async () => {
    model.route((r) => planningText(r).includes("Task: type the notes slowly"), act("click", { x: 300, y: 200 }, "Focusing the notes"), act("type", { text: LONG_TEXT }, "Typing the notes"));
    await fetch(`${devtools}/json/new?${pages.url("slow-typing.html")}`, { method: "PUT" });
    const targets = (await (await fetch(`${devtools}/json/list`)).json()) as { id: string; type: string; url: string }[];
    const theirs = targets.find((t) => t.type === "page" && t.url.endsWith("slow-typing.html"))!;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", {
      mode: "task",
      session_id: "s-stop-typing",
      text: "type the notes slowly",
      cdp_url: devtools,
      cdp_target_id: theirs.id,
    });
    const events = await openStream(app.url, "s-stop-typing", 0);
    await waitUntil(() => lengths().some((l) => l.length >= 20), 60_000);

    const stop = await app.api("POST", "/api/chat/stop", { task_id: json.task_id });
    const returned = Date.now();
    expect(stop.status).toBe(202);
    expect(await events.waitForEnd(json.task_id, 10_000)).toMatchObject({ type: "task.stopped" });
    events.close();
    // Longer than a key takes (15 ms) many times over: typing that went on would show.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const seen = lengths();
    expect(seen.filter((l) => l.at > returned)).toEqual([]);
    expect(Math.max(...seen.map((l) => l.length))).toBeLessThan(LONG_TEXT.length);
  });

  it("a tool call past its deadline: once the model is told it failed, the field takes no more keys", async () => {
    const goal = "Type the long notes";
    const agent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
    let toldAt = 0;
    let told = "";
    const close: Reply = { chat: { calls: [{ name: "close", arguments: { reasoning: "It took too long.", taskComplete: false } }] } };
    model.route(
      agent,
      { chat: { calls: [{ name: "type", arguments: { describe: "the Notes field", text: LONG_TEXT, coordinates: [300, 200] } }] } },
      (r) => {
        toldAt = Date.now();
        told = JSON.stringify(r.body.messages.at(-1));
        return close;
      },
    );
    const before = lengths().length;
    const { json } = await send("s-tool-deadline", goal, { agent_mode: "hybrid" });
    const events = await openStream(app.url, "s-tool-deadline", 0);
    await events.waitForEnd(json.task_id, 90_000);
    events.close();
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    expect(told).toContain(`type took longer than ${TOOL_TIMEOUT_MS / 1000} s, and was stopped during: type (the Notes field).`);
    const seen = lengths().slice(before);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((l) => l.at > toldAt)).toEqual([]);
    expect(Math.max(...seen.map((l) => l.length))).toBeLessThan(LONG_TEXT.length);
  });
});

describe("wait", () => {
  it("counts from the moment the action before it settled, not from when the slow model got round to it", async () => {
    const N = 3_000;
    const THINKING_MS = 2_500;
    model.route(
      (r) => planningText(r).includes("Task: press twice with a pause"),
      act("click", { x: 200, y: 430 }, "Pressing Go"),
      { ...act("wait", { ms: N }, "Waiting"), delayMs: THINKING_MS },
      act("click", { x: 200, y: 430 }, "Pressing Go again"),
      act("done", { answer: "pressed twice" }),
    );
    const before = presses().length;
    const { json } = await send("s-exact-wait", "press twice with a pause");
    const events = await openStream(app.url, "s-exact-wait", 0);
    expect(await events.waitForEnd(json.task_id, 60_000)).toMatchObject({ type: "task.completed" });
    events.close();
    await waitUntil(() => presses().length >= before + 2);
    const [first, second] = presses().slice(before) as [number, number];
    // The model's thinking came out of the wait: the second press comes N ms after the first one
    // settled, and the second press's own checks after that (a few hundred ms on a busy machine).
    expect(second - first).toBeGreaterThanOrEqual(N);
    expect(second - first).toBeLessThan(N + THINKING_MS - 500);
  });

  it("the press after a wait lands at the wait's end: the step, the model's think and the press's own checks come out of the wait", async () => {
    const N = 2_000;
    // A model that thinks for 300 ms each step: the press after the wait would land that late (and
    // more: its capture and checks) if the wait did not take them out of its own time.
    const THINK_MS = 300;
    model.route(
      (r) => planningText(r).includes("Task: press again after a pause"),
      ...[
        act("click", { x: 200, y: 430 }, "Pressing Go"),
        act("wait", { ms: N }, "Waiting"),
        act("click", { x: 200, y: 430 }, "Pressing Go again"),
        act("done", { answer: "pressed twice" }),
      ].map((reply) => ({ ...reply, delayMs: THINK_MS })),
    );
    const before = presses().length;
    const { json } = await send("s-wait-then-press", "press again after a pause");
    const events = await openStream(app.url, "s-wait-then-press", 0);
    expect(await events.waitForEnd(json.task_id, 60_000)).toMatchObject({ type: "task.completed" });
    events.close();
    await waitUntil(() => presses().length >= before + 2);
    const [first, second] = presses().slice(before) as [number, number];
    const pressStep = events.events.find((e) => e.type === "progress.append" && e.step.action?.type === "click");
    const timings = pressStep?.type === "progress.append" ? pressStep.step.timings : undefined;
    // The wait ends N ms after the first press settled; the second press lands then, not after a capture, a model call and a hit test.
    const late = second - (first + (timings?.settle ?? 0) + N);
    expect(late).toBeGreaterThanOrEqual(0);
    // Within 20 ms on a quiet machine (6–29 ms measured under load), give or take what the browser
    // takes to take a press (the first one's own time): never the model's think, which came first.
    expect(late).toBeLessThan(Math.min(THINK_MS / 2, 20 + 2 * (timings?.action ?? 0) + 50));
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await new Promise((r) => setTimeout(r, 20));
  }
}
