// The person's running Chrome, by their consent (ATTACH_CHROME): a task drives the Chrome they
// already run once they have turned its remote debugging on, found by the DevToolsActivePort that
// Chrome writes into its profile — here a Chromium the test starts with a profile and remote
// debugging. When the switch is off the task says how to turn it on, and no browser is launched.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../../src/computers/browser/find-chromium.ts";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { CHROMIUM_ARGS } from "../support/chromium.ts";
import { childPrograms } from "../support/processes.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let chrome: ChildProcess;
let profile: string;

const browsersRunning = () => childPrograms().filter((name) => /chrom/i.test(name)).length;

/** Waits until Chrome has written the file, as it does once its DevTools listen. */
async function activePort(dir: string): Promise<string> {
  const file = path.join(dir, "DevToolsActivePort");
  for (let waited = 0; waited < 30_000; waited += 100) {
    const text = await readFile(file, "utf8").catch(() => "");
    if (text.includes("/devtools/browser/")) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Chromium wrote no ${file}`);
}

beforeAll(async () => {
  profile = await mkdtemp(path.join(tmpdir(), "easyagentcu-their-profile-"));
  // The person's Chrome, with its remote debugging on and the form open; port 0: Chrome picks one.
  chrome = spawn(findChromium(process.env.CHROME_PATH), ["--headless", "--no-sandbox", ...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, pages.url("form.html")], { stdio: "ignore" });
  await activePort(profile);
});

afterAll(() => {
  chrome?.kill();
});

async function runTask(app: TestApp, session: string, text: string) {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  return { end, taskId: json.task_id };
}

describe("the person's running Chrome", () => {
  it("is found by its profile's DevToolsActivePort and driven, and stays open", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { attachChrome: true, chromeProfileDir: profile } } });
    try {
      const before = browsersRunning();
      model.route((r) => planningText(r).includes("Task: press it in my own Chrome"), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }));
      const { end, taskId } = await runTask(app, "s-their-chrome", "press it in my own Chrome");
      expect(end).toMatchObject({ type: "task.completed", answer: "Pressed." });
      await pages.waitForRecord("clicked");
      // The model saw the person's tab.
      const planning = model.requests.find((r) => planningText(r).includes("Task: press it in my own Chrome"))!;
      expect(planningText(planning)).toContain("form.html");
      const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
      expect(json.task.cdp).toEqual({ url: pathToFileURL(path.join(profile, "DevToolsActivePort")).href, target_id: null });
      // Their Chrome runs on, and no other browser was started.
      expect(chrome.exitCode).toBeNull();
      expect(browsersRunning()).toBe(before);
    } finally {
      await app.close();
    }
  });

  it("says how to turn remote debugging on when it is off, and launches no browser instead", async () => {
    const elsewhere = await mkdtemp(path.join(tmpdir(), "easyagentcu-other-profile-"));
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { attachChrome: true, chromeProfileDir: elsewhere } } });
    try {
      const before = browsersRunning();
      // No DevToolsActivePort: that Chrome does not share its DevTools.
      const off = (await runTask(app, "s-chrome-off", "press it while it is off")).end as Extract<SessionEvent, { type: "task.failed" }>;
      expect(off).toMatchObject({ type: "task.failed", error: { code: "BROWSER_UNAVAILABLE" } });
      expect(off.error.message).toContain("open chrome://inspect/#remote-debugging, turn on remote debugging");
      expect(off.error.message).toContain(`there is no ${path.join(elsewhere, "DevToolsActivePort")}`);

      // A file left behind by a Chrome that has closed names a port nobody answers on.
      const closed = await freePort();
      await writeFile(path.join(elsewhere, "DevToolsActivePort"), `${closed}\n/devtools/browser/0f1e2d3c\n`);
      const stale = (await runTask(app, "s-chrome-closed", "press it after it closed")).end as Extract<SessionEvent, { type: "task.failed" }>;
      expect(stale).toMatchObject({ type: "task.failed", error: { code: "BROWSER_UNAVAILABLE" } });
      expect(stale.error.message).toContain(`nothing answers on port ${closed}`);
      expect(stale.error.message).toContain("chrome://inspect/#remote-debugging");
      expect(browsersRunning()).toBe(before);
    } finally {
      await app.close();
    }
  });

  it("cannot be combined with CDP_URL: the two name different browsers", async () => {
    await expect(startApp({ modelBaseUrl: model.baseUrl, config: { browser: { attachChrome: true, chromeProfileDir: profile, cdpUrl: "http://127.0.0.1:9222" } } })).rejects.toThrow(
      "CDP_URL and ATTACH_CHROME (--attach-chrome) each name the browser to drive; set only one of them.",
    );
  });
});

/** A port that was free a moment ago, and is closed again. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
