// `%name%` secrets (issue 12): the model reads and writes only the placeholder; the value is typed
// where the computer types, the field is blurred on every screenshot from then on, and nothing
// the model reads back or the task records holds the value.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const VALUE = "s3cret-Value-42";
const { model, pages, app } = useWorld({ config: { secrets: { access_code: VALUE } } });

async function run(session: string, body: Record<string, unknown>) {
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, ...body });
  const end = await events.waitForEnd(json.task_id, 45_000);
  events.close();
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { end, stored, events: events.events };
}

const toolAgentFor = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });

describe("secrets", () => {
  it("the planner types a placeholder: the page gets the value, its field is blurred, and the record keeps the placeholder", async () => {
    const task = "Enter the access code %access_code%";
    model.route(
      (r) => planningText(r).includes(task),
      act("click", { x: 200, y: 120 }, "Clicking the access code field"),
      act("type", { text: "%access_code%" }, "Typing the access code"),
      act("done", { answer: "Entered." }, "Finished"),
    );
    const { end, stored, events } = await run("s-secret-planner", { text: task, start_url: pages.url("secret.html") });
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord(`typed:${VALUE}`);
    await pages.waitForRecord("filter:blur(8px)");
    expect(stored.steps[1]!.action).toMatchObject({ type: "type", args: { text: "%access_code%" } });
    expect(JSON.stringify(stored)).not.toContain(VALUE);
    expect(JSON.stringify(events)).not.toContain(VALUE);
  });

  it("the tool agent types it too, and reads its field back as the placeholder", async () => {
    const goal = "Type the access code %access_code% and read the page";
    model.route(
      toolAgentFor(goal),
      calls(["screenshot", {}]),
      calls(["type", { describe: "the Access code field", text: "%access_code%", coordinates: [200, 120] }]),
      calls(["ariaTree", {}]),
      calls(["close", { reasoning: "Typed.", taskComplete: true }]),
    );
    const { end } = await run("s-secret-tools", { text: goal, agent_mode: "hybrid", start_url: pages.url("secret.html") });
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord(`typed:${VALUE}`);
    const requests = model.requests.filter(toolAgentFor(goal));
    const last = JSON.stringify(requests.at(-1)!.body);
    expect(last).toContain("%access_code%");
    for (const request of requests) expect(JSON.stringify(request.body)).not.toContain(VALUE);
  });
});

/** Every file under `dir` (the SQLite database and its journal among them) that holds `value`. */
async function filesHolding(dir: string, value: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const held = await Promise.all(files.map(async (file) => ((await readFile(file)).includes(value) ? [file] : [])));
  return held.flat();
}

describe("a page that echoes a secret", () => {
  it("prints it, titles itself and addresses itself with it: the value is nowhere in the data, the stream or the model's requests, and its echo is blurred", async () => {
    const task = "Search for the access code %access_code%";
    model.route(
      (r) => planningText(r).includes(task),
      act("click", { x: 200, y: 120 }, "Clicking the search field"),
      act("type", { text: "%access_code%" }, "Typing the access code"),
      act("wait", { ms: 300 }, "Looking at the results"),
      act("done", { answer: "Searched." }, "Finished"),
    );
    const { end, events } = await run("s-secret-echo", { text: task, start_url: pages.url("echo.html") });
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord(`echoed:${VALUE}`);
    await pages.waitForRecord("echo-filter:blur(8px)");
    expect(events.some((e) => e.type === "screen.live" && e.url?.includes("?q=%access_code%"))).toBe(true);
    expect(JSON.stringify(events)).not.toContain(VALUE);
    for (const request of model.requests) expect(JSON.stringify(request.body)).not.toContain(VALUE);
    expect(await filesHolding(app.dataDir, VALUE)).toEqual([]);
  });
});

describe("a page that echoes a secret into another site's frame", () => {
  it("has the echo blurred inside that frame too", async () => {
    const task = "Search the framed page for %access_code%";
    model.route(
      (r) => planningText(r).includes(task),
      act("click", { x: 200, y: 120 }, "Clicking the search field"),
      act("type", { text: "%access_code%" }, "Typing the access code"),
      act("wait", { ms: 300 }, "Looking at the results"),
      act("done", { answer: "Searched." }, "Finished"),
    );
    const { end } = await run("s-secret-echo-frame", { text: task, start_url: pages.url("echo-frame.html") });
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("frame-echo-filter:blur(8px)");
  });
});
