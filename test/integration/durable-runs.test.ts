// Durable runs on workers (issue 38), past the plain case of workers.test.ts: a task whose every
// worker dies ends with a clear error instead of running forever; a worker frozen while another
// takes its task up does nothing more with it when it wakes, its chat's sign-ins included; a task that waited for the person
// when its worker died still waits on the next one, through more redeploys than it has tries; and
// the next one opens its page signed in; a worker stopped (SIGTERM) hands its tasks, under way or
// waiting, to the next one instead of stopping them.
// A worker streams a task's live view only while a server has a viewer of its chat.
import { describe, expect, it } from "vitest";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import type { AgentEventOf, TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, type RecordedRequest } from "../support/scripted-model.ts";
import { kinds, openStream } from "../support/sse.ts";
import { useWorkers } from "../support/workers.ts";

const { model, pages, deploy } = useWorkers();

/** The tries the queue gives a task: the first and three more (worker/task-jobs.ts RETRY_LIMIT). */
const TRIES = 4;

describe("a task on workers", () => {
  it("whose every worker dies ends failed, saying it was taken up each time, on the stream of every server", async () => {
    const product = await deploy();
    const hang = { ...act("click", { x: 200, y: 130 }, "Pressing"), delayMs: 120_000 };
    model.route((r) => planningText(r).includes("Task: doomed job"), ...Array.from({ length: TRIES }, () => hang));
    const api = await product.serve();
    const other = await product.serve();
    const doomed = await api.send({ mode: "task", session_id: "s-doomed", text: "doomed job", start_url: pages.url("form.html") });
    const watching = await openStream(other.url, "s-doomed", 0);
    for (let taken = 0; taken < TRIES; taken++) {
      const worker = await product.worker();
      await until(() => worker.said().includes(doomed), 60_000);
      await worker.kill();
    }
    const end = await watching.waitForEnd(doomed, 60_000);
    expect(end).toMatchObject({ type: "task.failed", error: { code: "INTERRUPTED" } });
    expect(end.type === "task.failed" && end.error.message).toContain(`taken up ${TRIES} times`);
    watching.close();
    expect(kinds(watching.events).filter((t) => t === "task.failed")).toHaveLength(1);
    const { json } = await api.api<TaskReply>("GET", `/api/tasks/${doomed}`);
    expect(json.task).toMatchObject({ status: "failed", error: { code: "INTERRUPTED" } });
    // Its chat is free again on either server.
    model.route((r) => planningText(r).includes("Task: next job"), act("done", { answer: "Next one done." }, "Done"));
    await product.worker();
    const next = await api.send({ mode: "task", session_id: "s-doomed", text: "next job", start_url: pages.url("form.html") });
    const after = await openStream(api.url, "s-doomed", 0);
    expect(await after.completes(next, 60_000)).toMatchObject({ answer: "Next one done." });
    after.close();
  }, 300_000);

  it("taken up while its worker was frozen is left alone by that worker when it wakes: it acts and writes nothing more, and each event is seen once, in order", async () => {
    const product = await deploy();
    const resumed = (r: RecordedRequest) => JSON.stringify(r.body).includes("This task was resumed");
    model.route((r) => resumed(r) && planningText(r).includes("Task: frozen job"), act("done", { answer: "Finished by the second worker." }, "Done"));
    // The first worker's next step comes while it is frozen; it reads it when it wakes.
    model.route((r) => planningText(r).includes("Task: frozen job"), act("click", { x: 200, y: 130 }, "Pressing"), { ...act("click", { x: 200, y: 130 }, "Pressing again"), delayMs: 2_000 });
    const api = await product.serve();
    const first = await product.worker();
    const clicks = () => pages.records.filter((r) => r === "clicked").length;
    const clicksBefore = clicks();
    const frozen = await api.send({ mode: "task", session_id: "s-frozen", text: "frozen job", start_url: pages.url("form.html") });
    const watching = await openStream(api.url, "s-frozen", 0);
    await watching.waitFor((e) => e.type === "progress.append" && e.task_id === frozen, 60_000);
    first.freeze();
    const second = await product.worker();
    expect(await watching.completes(frozen, 120_000)).toMatchObject({ answer: "Finished by the second worker." });
    expect(second.said()).toContain(frozen);

    first.wake();
    // Awake, it reads the step that came meanwhile: it either sees the task is not its own any more, or presses the page again.
    await until(() => first.said().includes("another worker took this task up") || clicks() > clicksBefore + 1, 30_000);
    // Time for whatever it would still do with the page and the store.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    watching.close();
    expect(kinds(watching.events)).toEqual(["task.started", "task.running", "progress.append", "task.resumed", "progress.append", "task.completed"]);
    const ids = watching.events.map((e) => e.id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    const replay = await openStream(api.url, "s-frozen", 0);
    await replay.waitForEnd(frozen);
    replay.close();
    expect(kinds(replay.events)).toEqual(kinds(watching.events));
    const { json } = await api.api<TaskReply>("GET", `/api/tasks/${frozen}`);
    expect(json.task).toMatchObject({ status: "completed", answer: "Finished by the second worker." });
    expect(json.steps.map((s) => s.index)).toEqual([1, 2]);
    // The page was pressed once, by the first worker before it froze; never again when it woke.
    expect(clicks() - clicksBefore).toBe(1);
  }, 300_000);

  it("taken up while its worker was frozen keeps the sign-ins its new worker left: the frozen worker's browser, signed in meanwhile, writes none when it wakes", async () => {
    const product = await deploy();
    const resumed = (r: RecordedRequest) => JSON.stringify(r.body).includes("This task was resumed");
    model.route((r) => resumed(r) && planningText(r).includes("Task: frozen member job"), act("done", { answer: "Finished without signing in." }, "Done"));
    model.route((r) => planningText(r).includes("Task: frozen member job"), act("click", { x: 200, y: 330 }, "Signing in slowly"), { ...act("done", { answer: "never" }), delayMs: 8_000 });
    model.route((r) => planningText(r).includes("Task: next member job"), act("done", { answer: "Looked." }, "Done"));
    const api = await product.serve();
    const first = await product.worker();
    const frozen = await api.send({ mode: "task", session_id: "s-frozen-member", text: "frozen member job", start_url: pages.url("members.html") });
    const watching = await openStream(api.url, "s-frozen-member", 0);
    await watching.waitFor((e) => e.type === "progress.append" && e.task_id === frozen, 60_000);
    // The site signs its browser in as it waits for its model, after it kept the chat's sign-ins for that step; then it freezes.
    await pages.waitForRecord("members: signed in slowly");
    first.freeze();
    await product.worker();
    expect(await watching.completes(frozen, 120_000)).toMatchObject({ answer: "Finished without signing in." });
    watching.close();

    first.wake();
    await until(() => first.said().includes("another worker took this task up"), 30_000);
    // Time for it to close its browser, which is when it would keep what the browser holds.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const loadsBefore = pages.records.length;
    const next = await api.send({ mode: "task", session_id: "s-frozen-member", text: "next member job", start_url: pages.url("members.html") });
    const after = await openStream(api.url, "s-frozen-member", 0);
    expect(await after.completes(next, 60_000)).toMatchObject({ answer: "Looked." });
    after.close();
    expect(pages.records.slice(loadsBefore)).toContain("members: signed out");
    expect(pages.records.slice(loadsBefore)).not.toContain("members: signed in");
  }, 300_000);

  it("that waited for the person when its worker died is taken up still waiting, and their answer, given on any server, resumes it on the new worker", async () => {
    const product = await deploy();
    const answered = (r: RecordedRequest) => JSON.stringify(r.body).includes("stopped while the task waited for the person");
    model.route((r) => answered(r) && planningText(r).includes("Task: wait for me"), act("done", { answer: "Logged in." }, "Finished"));
    model.route((r) => planningText(r).includes("Task: wait for me"), act("needs_user", { answer: "Please log in, then press I've done it." }, "Waiting for the login"));
    const api = await product.serve();
    const other = await product.serve();
    const first = await product.worker();
    const waiting = await api.send({ mode: "task", session_id: "s-waiting", text: "wait for me", start_url: pages.url("form.html") });
    const watching = await openStream(other.url, "s-waiting", 0);
    await watching.waitFor((e) => e.type === "task.awaiting_user", 60_000);
    await first.kill();
    const second = await product.worker();
    await until(() => second.said().includes(waiting), 60_000);

    // Held by the new worker, it still waits, asking what it asked.
    const held = (await api.api<TaskReply>("GET", `/api/tasks/${waiting}`)).json.task;
    expect(held).toMatchObject({ status: "awaiting_user", answer: "Please log in, then press I've done it." });
    expect(kinds(watching.events)).not.toContain("task.resumed");
    expect((await other.api("POST", "/api/chat/ack-user-action", { task_id: waiting })).status).toBe(202);
    expect(await watching.completes(waiting, 60_000)).toMatchObject({ answer: "Logged in." });
    watching.close();
    const told = kinds(watching.events);
    expect(told.slice(told.indexOf("task.awaiting_user"))).toEqual(["task.awaiting_user", "task.resumed", "progress.append", "task.completed"]);
    // The model was told what the person answered, on the page it was on.
    const resumed = JSON.stringify(model.requests.find(answered)!.body);
    expect(resumed).toContain("they answered: I've done it");
    expect(resumed).toContain(`The page was opened again at ${pages.url("form.html")}`);
  }, 300_000);

  it("waiting for the person outlasts more worker restarts than the queue gives a task tries, and is then answered and completes", async () => {
    const product = await deploy();
    const answered = (r: RecordedRequest) => JSON.stringify(r.body).includes("stopped while the task waited for the person") && planningText(r).includes("Task: wait through redeploys");
    model.route(answered, act("done", { answer: "Went on after the weekend." }, "Finished"));
    model.route((r) => planningText(r).includes("Task: wait through redeploys"), act("needs_user", { answer: "Please press I've done it on Monday." }, "Waiting"));
    const api = await product.serve();
    const first = await product.worker();
    const waiting = await api.send({ mode: "task", session_id: "s-redeploys", text: "wait through redeploys", start_url: pages.url("form.html") });
    const watching = await openStream(api.url, "s-redeploys", 0);
    await watching.waitFor((e) => e.type === "task.awaiting_user", 60_000);
    await first.kill();
    // Each redeploy stops the worker that holds the task (SIGTERM) and starts another.
    for (let redeploy = 0; redeploy <= TRIES; redeploy++) {
      const worker = await product.worker();
      await until(() => worker.said().includes(waiting), 60_000);
      await worker.stop();
    }
    const last = await product.worker();
    await until(() => last.said().includes(waiting), 60_000);
    expect((await api.api<TaskReply>("GET", `/api/tasks/${waiting}`)).json.task).toMatchObject({ status: "awaiting_user" });
    expect((await api.api("POST", "/api/chat/ack-user-action", { task_id: waiting })).status).toBe(202);
    expect(await watching.completes(waiting, 60_000)).toMatchObject({ answer: "Went on after the weekend." });
    watching.close();
    expect(kinds(watching.events)).not.toContain("task.failed");
  }, 400_000);

  it("under way, or waiting for the person in its own run, when its worker is stopped (SIGTERM) is handed to the next worker, not stopped", async () => {
    const product = await deploy();
    const resumed = (name: string) => (r: RecordedRequest) => JSON.stringify(r.body).includes("This task was resumed") && planningText(r).includes(`Task: ${name}`);
    const answered = (r: RecordedRequest) => JSON.stringify(r.body).includes("stopped while the task waited for the person") && planningText(r).includes("Task: ask me before a redeploy");
    model.route(resumed("keep working through a redeploy"), act("done", { answer: "Finished on the next worker." }, "Done"));
    model.route(
      (r) => planningText(r).includes("Task: keep working through a redeploy"),
      act("click", { x: 200, y: 130 }, "Pressing"),
      // Still thinking when its worker is told to stop.
      { ...act("done", { answer: "never" }), delayMs: 120_000 },
    );
    model.route(answered, act("done", { answer: "Answered on the next worker." }, "Finished"));
    model.route((r) => planningText(r).includes("Task: ask me before a redeploy"), act("needs_user", { answer: "Please press I've done it." }, "Waiting"));
    const api = await product.serve();
    const first = await product.worker({ slots: 2 });
    const working = await api.send({ mode: "task", session_id: "s-redeploy-working", text: "keep working through a redeploy", start_url: pages.url("form.html") });
    const asking = await api.send({ mode: "task", session_id: "s-redeploy-asking", text: "ask me before a redeploy", start_url: pages.url("form.html") });
    const work = await openStream(api.url, "s-redeploy-working", 0);
    const ask = await openStream(api.url, "s-redeploy-asking", 0);
    await work.waitFor((e) => e.type === "progress.append", 60_000);
    await ask.waitFor((e) => e.type === "task.awaiting_user", 60_000);
    const stopping = Date.now();
    await first.stop();
    // Handed back at once, not after a heartbeat's timeout or a graceful wait for the runs to end.
    expect(Date.now() - stopping).toBeLessThan(20_000);
    expect((await api.api<TaskReply>("GET", `/api/tasks/${working}`)).json.task.status).toBe("running");
    expect((await api.api<TaskReply>("GET", `/api/tasks/${asking}`)).json.task.status).toBe("awaiting_user");

    const second = await product.worker({ slots: 2 });
    expect(await work.completes(working, 90_000)).toMatchObject({ answer: "Finished on the next worker." });
    await until(() => second.said().includes(asking), 60_000);
    expect((await api.api("POST", "/api/chat/ack-user-action", { task_id: asking })).status).toBe(202);
    expect(await ask.completes(asking, 60_000)).toMatchObject({ answer: "Answered on the next worker." });
    for (const stream of [work, ask]) {
      stream.close();
      const told = kinds(stream.events);
      expect(told).not.toContain("task.stopped");
      expect(told.filter((t) => t === "task.completed")).toHaveLength(1);
      const ids = stream.events.map((e) => e.id);
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    }
  }, 300_000);

  it("held waiting for the person by a worker that froze, then woke after another held it, is answered by the other alone", async () => {
    const product = await deploy();
    const answered = (r: RecordedRequest) => JSON.stringify(r.body).includes("stopped while the task waited for the person") && planningText(r).includes("Task: wait through a freeze");
    model.route(answered, act("done", { answer: "Went on once." }, "Finished"), act("done", { answer: "Went on twice." }, "Finished"));
    model.route((r) => planningText(r).includes("Task: wait through a freeze"), act("needs_user", { answer: "Please press I've done it." }, "Waiting"));
    const api = await product.serve();
    const first = await product.worker();
    const waiting = await api.send({ mode: "task", session_id: "s-freeze-wait", text: "wait through a freeze", start_url: pages.url("form.html") });
    const watching = await openStream(api.url, "s-freeze-wait", 0);
    await watching.waitFor((e) => e.type === "task.awaiting_user", 60_000);
    await first.kill();
    const holder = await product.worker();
    await until(() => holder.said().includes(waiting), 60_000);
    holder.freeze();
    const next = await product.worker();
    await until(() => next.said().includes(waiting), 60_000);
    holder.wake();
    // Awake, its next beat finds the task held by another.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect((await api.api("POST", "/api/chat/ack-user-action", { task_id: waiting })).status).toBe(202);
    expect(await watching.completes(waiting, 60_000)).toMatchObject({ answer: "Went on once." });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    watching.close();
    // Only the worker that holds it went on with the answer.
    expect(model.requests.filter(answered)).toHaveLength(1);
  }, 300_000);

  it("that waited for the person's decision when its worker died keeps it pending on the new worker, which the decision reaches", async () => {
    const product = await deploy({ APPROVAL_POLICY: JSON.stringify(DEFAULT_APPROVAL_POLICY) });
    const task = "Task: delete the account on a worker";
    const press = act("click", { x: 180, y: 120 }, "Deleting the account");
    model.route((r) => planningText(r).includes(task), press, press, act("done", { answer: "Deleted." }, "Finished"));
    const api = await product.serve();
    const other = await product.serve();
    const first = await product.worker();
    const deleting = await api.send({ mode: "task", session_id: "s-deciding", text: "delete the account on a worker", start_url: pages.url("approvals.html") });
    const watching = await openStream(other.url, "s-deciding", 0);
    const asked = (await watching.waitFor((e) => e.type === "approval.requested", 60_000)) as AgentEventOf<"approval.requested">;
    await first.kill();
    const second = await product.worker();
    await until(() => second.said().includes(deleting), 60_000);

    expect((await api.api<TaskReply>("GET", `/api/tasks/${deleting}`)).json.task).toMatchObject({ status: "awaiting_user", approval: { id: asked.approval.id } });
    expect((await other.api("POST", "/api/chat/approve", { task_id: deleting, approval_id: asked.approval.id, approved: true })).status).toBe(202);
    // What was allowed was lost with the worker: the model, told so, presses again, and the person is asked again.
    const again = (await watching.waitFor((e) => e.type === "approval.requested" && e.approval.id !== asked.approval.id, 60_000)) as AgentEventOf<"approval.requested">;
    expect(pages.records).not.toContain("deleted");
    expect((await api.api("POST", "/api/chat/approve", { task_id: deleting, approval_id: again.approval.id, approved: true })).status).toBe(202);
    expect(await watching.completes(deleting, 60_000)).toMatchObject({ answer: "Deleted." });
    watching.close();
    expect(pages.records.filter((r) => r === "deleted")).toHaveLength(1);
    const told = model.requests.filter((r) => planningText(r).includes(task))[1]!;
    expect(planningText(told)).toContain("they allowed it, but it was not done: look again and decide");
  }, 300_000);

  it("taken up by another worker after its own died opens its page again signed in, with the chat's sign-ins", async () => {
    const product = await deploy();
    const resumed = (r: RecordedRequest) => JSON.stringify(r.body).includes("This task was resumed");
    model.route((r) => resumed(r) && planningText(r).includes("Task: member job"), act("done", { answer: "Still signed in." }, "Done"));
    model.route((r) => planningText(r).includes("Task: member job"), act("click", { x: 200, y: 130 }, "Signing in"), { ...act("done", { answer: "never" }), delayMs: 120_000 });
    const api = await product.serve();
    const first = await product.worker();
    const member = await api.send({ mode: "task", session_id: "s-member", text: "member job", start_url: pages.url("members.html") });
    const watching = await openStream(api.url, "s-member", 0);
    await watching.waitFor((e) => e.type === "progress.append" && e.task_id === member, 60_000);
    await pages.waitForRecord("members: signing in");
    // Time for the worker to keep the chat's sign-ins as it waits for its model; then it dies.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await first.kill();
    const loadsBefore = pages.records.length;
    await product.worker();
    expect(await watching.completes(member, 60_000)).toMatchObject({ answer: "Still signed in." });
    watching.close();
    // The page opened again on the other worker was signed in.
    expect(pages.records.slice(loadsBefore)).toContain("members: signed in");
    expect(pages.records.slice(loadsBefore)).not.toContain("members: signed out");
  }, 300_000);

  it("on a worker streams its live view only once a server has a viewer of its chat", async () => {
    const product = await deploy();
    model.route((r) => planningText(r).includes("Task: unwatched job"), act("click", { x: 200, y: 130 }, "Pressing"), { ...act("done", { answer: "never" }), delayMs: 120_000 });
    const api = await product.serve();
    const other = await product.serve();
    await product.worker();
    const clicks = () => pages.records.filter((r) => r === "clicked").length;
    const clicksBefore = clicks();
    const unwatched = await api.send({ mode: "task", session_id: "s-unwatched", text: "unwatched job", start_url: pages.url("form.html") });
    // It looks, acts and waits for its model with nobody watching.
    await until(() => clicks() > clicksBefore, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const watchedFrom = new Date().toISOString();
    const watching = await openStream(other.url, "s-unwatched", 0);
    const first = await watching.waitFor((e) => e.type === "screen.live", 20_000);
    expect(first.at >= watchedFrom).toBe(true);
    expect(watching.events.filter((e) => e.type === "screen.live" && e.at < watchedFrom)).toEqual([]);
    watching.close();
    expect((await api.api("POST", "/api/chat/stop", { task_id: unwatched })).status).toBe(202);
  }, 300_000);
});

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
