// Run again and export for a planner's task: its recorded actions are done again through the
// hands, on their elements where they are now, and only a step whose element is gone asks the
// model (through the page view); its trajectory exports as JSON, and as a Playwright script that
// runs green against the same pages. A desktop task's script cannot be made, and says why.
import { execFile } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../src/agent/export/trajectory.ts";
import type { SendReply, TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 } } });

async function untilEnd(session: string, taskId: string) {
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(taskId, 60_000);
  events.close();
  return { end, stored: (await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json };
}

async function exported(taskId: string, format: string) {
  const reply = await fetch(`${app.url}/api/tasks/${taskId}/export?format=${format}`);
  return { status: reply.status, type: reply.headers.get("content-type"), text: await reply.text() };
}

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const chooser = (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes("changing.html");
const choose = (role: string, name: string, method = "click", value?: string): Responder => (r) => {
  const ref = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in the tree`);
  return { text: JSON.stringify({ ref, method, ...(value === undefined ? {} : { value }) }) };
};

/** Runs an exported script as a developer would, with the project's @playwright/test and the system Chromium. */
async function runScript(script: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "exported-"));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  writeFileSync(path.join(dir, "task.spec.ts"), script);
  writeFileSync(path.join(dir, "playwright.config.ts"), `export default { testDir: ".", use: { launchOptions: { executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] } } };\n`);
  return run(path.join(ROOT, "node_modules/.bin/playwright"), ["test", "-c", path.join(dir, "playwright.config.ts"), "--reporter=line"], { cwd: dir, timeout: 120_000 });
}

describe("a planner's task, run again", () => {
  it("finds each element where it is now, and heals through the page view the step whose element is gone", async () => {
    pages.setVariant("1");
    // Version 1: the Name field is centred at (198, 141), Continue at (90, 201).
    model.route(
      (r) => planningText(r).includes("Task: enter Ada and continue"),
      act("click", { x: 198, y: 141 }, "the Name field"),
      act("type", { text: "Ada" }, "Typing the name"),
      act("click", { x: 90, y: 201 }, "the Continue button"),
      act("done", { answer: "Entered Ada and continued." }, "Finished"),
    );
    const first = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", session_id: "s-planner-replay", text: "enter Ada and continue", start_url: pages.url("changing.html") });
    const original = await untilEnd("s-planner-replay", first.json.task_id!);
    expect(original.end).toMatchObject({ type: "task.completed" });
    expect(original.stored.steps[0]!.carried_out).toMatchObject({ action: { type: "click" }, element: { locator: "getByRole('textbox', { name: 'Name' })" } });
    await pages.waitForRecord("continued");

    // Version 2: a banner moves everything 140 px down, and the button is renamed Next step.
    pages.setVariant("2");
    pages.records.length = 0;
    const before = model.requests.length;
    model.route(chooser, choose("button", "Next step"));
    const again = await app.api<SendReply>("POST", "/api/chat/replay", { task_id: first.json.task_id });
    expect(again.status).toBe(202);
    const replay = await untilEnd("s-planner-replay", again.json.task_id!);
    expect(replay.end).toMatchObject({ type: "task.completed", answer: "Entered Ada and continued.\n\n_Run again: replayed steps 1, 2 without the model; healed step 3 with the model._" });
    await pages.waitForRecord("name:Ada");
    await pages.waitForRecord("continued");
    // The Name field was clicked where it is now, 140 px lower, and checked by the hit test.
    expect(replay.stored.steps[0]!.cursor_y! - 141).toBeGreaterThan(100);
    expect(replay.stored.steps[0]!.verification).toMatchObject({ verified: true, model_calls: 0 });
    expect(replay.stored.steps[2]!.tool).toMatchObject({ name: "act", replay: "healed" });
    // The model was asked once, to find the renamed button in the page view; never to plan.
    const asked = model.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(systemText(asked[0]!)).toMatch(/^You choose elements/);
  });

  it("refuses a task that did not complete", async () => {
    model.route((r) => planningText(r).includes("Task: a task that fails"), { status: 500 });
    const sent = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", session_id: "s-planner-failed", text: "a task that fails", start_url: pages.url("form.html") });
    expect((await untilEnd("s-planner-failed", sent.json.task_id!)).end).toMatchObject({ type: "task.failed" });
    const refused = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/replay", { task_id: sent.json.task_id });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "NOT_REPLAYABLE", message: expect.stringContaining("it is failed, not completed") });
  });
});

describe("a task's export", () => {
  it("is one trajectory, and a Playwright script that does the steps again on the same pages", async () => {
    model.route(
      (r) => planningText(r).includes("Task: press and type"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("type", { text: "Ada" }, "Typing the name"),
      act("done", { answer: "Typed Ada." }, "Finished"),
    );
    const sent = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", session_id: "s-export", text: "press and type", start_url: pages.url("form.html") });
    expect((await untilEnd("s-export", sent.json.task_id!)).end).toMatchObject({ type: "task.completed" });
    const taskId = sent.json.task_id!;

    const json = await exported(taskId, "json");
    expect(json.status).toBe(200);
    const trajectory = JSON.parse(json.text) as Trajectory;
    expect(trajectory).toMatchObject({ format: "easyagentcu.trajectory", version: 1, task: { id: taskId, status: "completed" } });
    expect(trajectory.steps.map((s) => [s.kind, s.action?.type, s.carried_out])).toEqual([
      ["action", "click", true],
      ["action", "type", true],
      ["final", "done", true],
    ]);
    expect(trajectory.steps[0]).toMatchObject({ point: { x: 200, y: 130 }, targets: [{ locator: "getByRole('button', { name: 'Press me' })" }], url: pages.url("form.html"), screenshot: { width: 1280, height: 800 }, usage: { input_tokens: 1200, output_tokens: 60 } });

    const script = await exported(taskId, "playwright");
    expect(script.status).toBe(200);
    expect(script.text).toContain(`await page.getByRole("button", { "name": "Press me" }).click();`);
    expect(script.text).toContain(`await page.keyboard.type("Ada");`);

    pages.records.length = 0;
    expect((await runScript(script.text)).stdout).toContain("1 passed");
    await pages.waitForRecord("clicked");
    await pages.waitForRecord("typed:Ada");

    // The CLI writes the same files, beside the running server.
    const cli = await run(process.execPath, ["bin/easyagentcu.js", "export", taskId, "--format", "playwright", "--data-dir", app.dataDir], { cwd: ROOT });
    expect(cli.stdout).toBe(script.text);
    expect(JSON.parse((await run(process.execPath, ["bin/easyagentcu.js", "export", taskId, "--data-dir", app.dataDir], { cwd: ROOT })).stdout)).toEqual(trajectory);
  });

  it("of a tool-agent task has the same shape, and its script fills and clicks by the recorded locators", async () => {
    pages.setVariant("1");
    const goal = "Enter Grace and continue";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      calls(["act", { action: "type Grace into the Name field" }]),
      calls(["act", { action: "click Continue" }]),
      calls(["close", { reasoning: "Entered Grace and continued.", taskComplete: true }]),
    );
    model.route(chooser, choose("textbox", "Name", "fill", "Grace"), choose("button", "Continue"));
    const sent = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-export-dom", text: goal, start_url: pages.url("changing.html") });
    expect((await untilEnd("s-export-dom", sent.json.task_id!)).end).toMatchObject({ type: "task.completed" });

    const trajectory = JSON.parse((await exported(sent.json.task_id!, "json")).text) as Trajectory;
    expect(trajectory.steps.map((s) => [s.kind, s.tool?.name, s.tool?.looks_only])).toEqual([
      ["tool", "ariaTree", true],
      ["tool", "act", false],
      ["tool", "act", false],
      ["final", "close", false],
    ]);
    expect(trajectory.steps[1]!.targets).toEqual([expect.objectContaining({ locator: "getByRole('textbox', { name: 'Name' })", action: { kind: "fill", value: "Grace" } })]);

    const script = (await exported(sent.json.task_id!, "playwright")).text;
    expect(script).toContain(`await page.getByRole("textbox", { "name": "Name" }).fill("Grace");`);
    expect(script).not.toContain("ariaTree");
    pages.records.length = 0;
    expect((await runScript(script)).stdout).toContain("1 passed");
    await pages.waitForRecord("name:Grace");
    await pages.waitForRecord("continued");
  });

  it("of a desktop task is JSON only: the script says what it cannot carry", async () => {
    model.route((r) => planningText(r).includes("Task: click on the desktop"), act("click", { x: 100, y: 100 }, "Clicking the desktop"), act("done", { answer: "Clicked." }, "Finished"));
    const sent = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", session_id: "s-export-desktop", text: "click on the desktop", computer: "desktop" });
    expect((await untilEnd("s-export-desktop", sent.json.task_id!)).end).toMatchObject({ type: "task.completed" });
    const json = await exported(sent.json.task_id!, "json");
    expect(json.status).toBe(200);
    expect(JSON.parse(json.text)).toMatchObject({ task: { computer: "desktop" }, steps: [{ kind: "action", action: { type: "click" }, point: { x: 100, y: 100 }, targets: [] }, { kind: "final" }] });
    const script = await exported(sent.json.task_id!, "playwright");
    expect(script.status).toBe(409);
    expect(JSON.parse(script.text).error).toMatchObject({ code: "NOT_EXPORTABLE", message: expect.stringContaining("a Playwright script (a browser page's) cannot carry") });
    expect((await exported(sent.json.task_id!, "yaml")).status).toBe(400);
    const cli = await run(process.execPath, ["bin/easyagentcu.js", "export", sent.json.task_id!, "--format", "playwright", "--data-dir", app.dataDir], { cwd: ROOT }).catch((error: { code: number; stderr: string }) => error);
    expect(cli).toMatchObject({ code: 1, stderr: expect.stringContaining("cannot carry") });
    expect((await exported("task_nope", "json")).status).toBe(404);
  });
});
