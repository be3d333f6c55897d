// Tasks run by `easyagentcu worker` processes (issue 38): `serve` queues each task on a real
// Postgres, two workers take them, and when one worker is killed mid-task the other takes that task
// up from its last step, on the same page, its model told it was resumed. A client of a second
// `serve` sees every event of every task once and in order, as the first one does.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, type TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, type RecordedRequest } from "../support/scripted-model.ts";
import { kept, kinds, openStream, type EventStream } from "../support/sse.ts";
import { useWorkers } from "../support/workers.ts";

const { model, pages, deploy } = useWorkers();

const SHORT = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"];

describe("workers", () => {
  it("run ten tasks, one taken up by the other worker when its worker is killed, each event seen once and in order by a client of either server", async () => {
    const product = await deploy();
    const resumed = (r: RecordedRequest) => JSON.stringify(r.body).includes("This task was resumed");
    model.route((r) => resumed(r) && planningText(r).includes("Task: long job"), act("done", { answer: "Finished where it was left." }, "Done"));
    model.route(
      (r) => planningText(r).includes("Task: long job"),
      act("click", { x: 200, y: 130 }, "Pressing"),
      // Never answered: its worker is killed while it waits.
      { ...act("done", { answer: "never" }), delayMs: 120_000 },
    );
    for (const name of SHORT) model.route((r) => planningText(r).includes(`Task: job ${name}`), act("click", { x: 200, y: 130 }, "Pressing"), act("done", { answer: `Done ${name}.` }, "Done"));

    const api = await product.serve();
    const second = await product.serve();
    const workers = [await product.worker(), await product.worker()];

    const long = await api.send({ mode: "task", session_id: "s-long", text: "long job", start_url: pages.url("form.html") });
    const watching = await openStream(second.url, "s-long", 0);
    await watching.waitFor((e) => e.type === "progress.append" && e.task_id === long, 60_000);
    const holder = workers.find((w) => w.said().includes(long))!;
    expect(holder).toBeDefined();
    const tasks = [long];
    for (const name of SHORT) tasks.push(await api.send({ mode: "task", session_id: `s-${name}`, text: `job ${name}`, start_url: pages.url("form.html") }));
    await holder.kill();

    const sessions = ["s-long", ...SHORT.map((name) => `s-${name}`)];
    const streams = new Map<string, EventStream>([["s-long", watching]]);
    for (const session of sessions.slice(1)) streams.set(session, await openStream(second.url, session, 0));
    for (const [index, session] of sessions.entries()) await streams.get(session)!.waitForEnd(tasks[index]!, 150_000);

    const other = workers.find((w) => w !== holder)!;
    expect(other.said()).toContain(long);
    for (const [index, session] of sessions.entries()) {
      const seen = streams.get(session)!;
      seen.close();
      const ids = seen.events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      // The first server's replay of the session holds the very same events.
      const replay = await openStream(api.url, session, 0);
      await replay.waitForEnd(tasks[index]!);
      replay.close();
      // (Live frames and activity are for the moment: a replay leaves them out.)
      expect(kept(replay.events)).toEqual(kept(seen.events));
      const told = kinds(seen.events);
      expect(told.filter((t) => t === "task.completed")).toHaveLength(1);
      expect(told.filter((t) => t === "task.started")).toHaveLength(1);
      const { json } = await api.api<TaskReply>("GET", `/api/tasks/${tasks[index]}`);
      expect(json.task.status).toBe("completed");
    }
    expect(kinds(streams.get("s-long")!.events)).toEqual(["task.started", "task.running", "progress.append", "task.resumed", "progress.append", "task.completed"]);
    const longReply = (await api.api<TaskReply>("GET", `/api/tasks/${long}`)).json;
    expect(longReply.task.answer).toBe("Finished where it was left.");
    expect(longReply.steps.map((s) => s.index)).toEqual([1, 2]);
    // The model was told, and the page it was on was opened again.
    const told = model.requests.find(resumed)!;
    expect(JSON.stringify(told.body)).toContain(`The page was opened again at ${pages.url("form.html")}`);
    expect(JSON.stringify(told.body)).toContain("Pressing");
  }, 300_000);
});

describe("commands to a worker's task", () => {
  it("reach the worker that holds it from any server: I've done it and Stop", async () => {
    const product = await deploy();
    model.route(
      (r) => planningText(r).includes("Task: ask me"),
      act("click", { x: 50, y: 50 }, "Looking around"),
      act("needs_user", { answer: "Please log in, then press I've done it." }, "Waiting for the login"),
      act("done", { answer: "Logged in." }, "Finished"),
    );
    model.route((r) => planningText(r).includes("Task: keep going"), act("click", { x: 200, y: 130 }, "Pressing"), { ...act("done", { answer: "never" }), delayMs: 120_000 });
    const api = await product.serve();
    const other = await product.serve();
    await product.worker();

    const asking = await api.send({ mode: "task", session_id: "s-ask", text: "ask me", start_url: pages.url("form.html") });
    const asked = await openStream(other.url, "s-ask", 0);
    await asked.waitFor((e) => e.type === "task.awaiting_user", 60_000);
    expect((await other.api("POST", "/api/chat/ack-user-action", { task_id: asking })).status).toBe(202);
    expect(await asked.completes(asking, 60_000)).toMatchObject({ answer: "Logged in." });
    asked.close();

    const going = await api.send({ mode: "task", session_id: "s-going", text: "keep going", start_url: pages.url("form.html") });
    const watched = await openStream(other.url, "s-going", 0);
    await watched.waitFor((e) => e.type === "progress.append", 60_000);
    // The worker's one slot is taken: the next task waits in the queue, and Stop ends it there.
    const waiting = await api.send({ mode: "task", session_id: "s-waiting", text: "never run", start_url: pages.url("form.html") });
    const waited = await openStream(other.url, "s-waiting", 0);
    expect((await other.api("POST", "/api/chat/stop", { task_id: waiting })).status).toBe(202);
    expect(await waited.waitForEnd(waiting, 30_000)).toMatchObject({ type: "task.stopped" });
    waited.close();
    expect((await other.api("POST", "/api/chat/stop", { task_id: going })).status).toBe(202);
    expect(await watched.waitForEnd(going, 60_000)).toMatchObject({ type: "task.stopped" });
    watched.close();
    expect((await api.api<TaskReply>("GET", `/api/tasks/${going}`)).json.task.status).toBe("stopped");
    // Once the slot is free, the stopped task is not run.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(model.requests.some((r) => planningText(r).includes("Task: never run"))).toBe(false);
    expect((await api.api<TaskReply>("GET", `/api/tasks/${waiting}`)).json.task.status).toBe("stopped");
  }, 240_000);

  it("reach the worker from an MCP client of another server: answer_person, and stop_task for a task still queued", async () => {
    const product = await deploy();
    model.route(
      (r) => planningText(r).includes("Task: mcp ask me"),
      act("needs_user", { answer: "Please log in, then press I've done it." }, "Waiting for the login"),
      act("done", { answer: "Logged in." }, "Finished"),
    );
    model.route((r) => planningText(r).includes("Task: mcp hold the slot"), act("click", { x: 200, y: 130 }, "Pressing"), { ...act("done", { answer: "never" }), delayMs: 120_000 });
    const api = await product.serve();
    const other = await product.serve();
    await product.worker();
    const client = new Client({ name: "workers-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${other.url}/mcp`), { requestInit: { headers: { [INSTALL_TOKEN_HEADER]: other.token } } }));
    try {
      const asking = await api.send({ mode: "task", session_id: "s-mcp-ask", text: "mcp ask me", start_url: pages.url("form.html") });
      const asked = await openStream(other.url, "s-mcp-ask", 0);
      await asked.waitFor((e) => e.type === "task.awaiting_user", 60_000);
      const answered = await client.callTool({ name: "answer_person", arguments: { task_id: asking, text: "Done." } });
      expect(answered.isError).toBeFalsy();
      expect(await asked.completes(asking, 60_000)).toMatchObject({ answer: "Logged in." });
      asked.close();

      const holding = await api.send({ mode: "task", session_id: "s-mcp-hold", text: "mcp hold the slot", start_url: pages.url("form.html") });
      const held = await openStream(other.url, "s-mcp-hold", 0);
      await held.waitFor((e) => e.type === "progress.append", 60_000);
      const waiting = await api.send({ mode: "task", session_id: "s-mcp-waiting", text: "mcp never run", start_url: pages.url("form.html") });
      const stopped = await client.callTool({ name: "stop_task", arguments: { task_id: waiting } });
      expect(stopped.isError).toBeFalsy();
      expect((await api.api<TaskReply>("GET", `/api/tasks/${waiting}`)).json.task.status).toBe("stopped");
      expect((await other.api("POST", "/api/chat/stop", { task_id: holding })).status).toBe(202);
      await held.waitForEnd(holding, 60_000);
      held.close();
    } finally {
      await client.close();
    }
  }, 240_000);
});
