// Everything survives a restart; a task whose server was killed while it ran is marked interrupted,
// never left running, while one that waited for the person still waits and goes on once they
// answer; a crashed browser fails its task with a reason and the next task gets a new browser.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ChatMessage, type Session, type SessionEvent, type TaskReply } from "../../src/protocol/index.ts";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { startApp } from "../support/app.ts";
import { gate } from "../support/gate.ts";
import { kept, kinds, openStream } from "../support/sse.ts";
import { act, isChatTurn, planningText, systemText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { startProductProcess } from "../support/product-process.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });

describe("two servers on one data dir", () => {
  it("refuses the second before it touches the first one's running task", async () => {
    model.route((r) => planningText(r).includes("Task: hold on"), act("wait", { ms: 1500 }, "Waiting"), act("done", { answer: "Held on." }, "Done"));
    const first = await startApp({ modelBaseUrl: model.baseUrl });
    try {
      const { json } = await first.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-two-servers", text: "hold on" });
      const events = await openStream(first.url, "s-two-servers", 0);
      await events.waitFor((e) => e.type === "task.started");
      await expect(startApp({ modelBaseUrl: model.baseUrl, dataDir: first.dataDir })).rejects.toMatchObject({ code: "DATA_DIR_LOCKED" });
      expect(await events.completes(json.task_id)).toMatchObject({ answer: "Held on." });
      events.close();
      expect(events.events.some((e) => e.type === "task.failed")).toBe(false);
    } finally {
      await first.close();
    }
    // Once the first has stopped, the data dir is free again.
    const again = await startApp({ modelBaseUrl: model.baseUrl, dataDir: first.dataDir });
    await again.close();
  });
});

describe("restart", () => {
  it("shows sessions, tasks, steps and frames after the server restarts", async () => {
    model.route(
      (r) => planningText(r).includes("Task: remember me"),
      act("click", { x: 200, y: 130 }, "Pressing"),
      act("done", { answer: "Remembered." }, "Done"),
    );
    const first = await startApp({ modelBaseUrl: model.baseUrl });
    const { json } = await first.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-restart", text: "remember me", start_url: pages.url("form.html") });
    const events = await openStream(first.url, "s-restart", 0);
    await events.waitForEnd(json.task_id);
    events.close();
    const before = (await first.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    await first.close();

    const second = await startApp({ modelBaseUrl: model.baseUrl, dataDir: first.dataDir });
    try {
      const sessions = (await second.api<{ sessions: Session[] }>("GET", "/api/sessions")).json.sessions;
      expect(sessions.map((s) => [s.id, s.title])).toEqual([["s-restart", "remember me"]]);
      const after = (await second.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(after).toEqual(before);
      expect(after.task).toMatchObject({ status: "completed", answer: "Remembered." });
      expect(after.steps).toHaveLength(2);
      for (const step of after.steps) {
        const image = await fetch(`${second.url}${step.screenshot!.url}`);
        expect(image.status).toBe(200);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      }
      const live = await fetch(`${second.url}${after.task.live_frame!.url}`);
      expect(live.status).toBe(200);
      const replay = await openStream(second.url, "s-restart", 0);
      await replay.waitForEnd(json.task_id);
      replay.close();
      expect(kinds(replay.events)).toEqual([
        "task.started",
        "progress.append",
        "progress.append",
        "task.completed",
      ]);
    } finally {
      await second.close();
    }
  });

  it("marks a task and a chat answer of a killed server as failed with reason interrupted", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-killed-"));
    model.route((r) => planningText(r).includes("Task: killed midway"), { ...act("done", { answer: "never" }), delayMs: 60_000 });
    model.route((r) => isChatTurn(r) && JSON.stringify(r.body).includes("killed while answering"), { chat: { text: "never" }, delayMs: 60_000 });
    const { url, send, kill } = await spawnServer(dataDir);
    const task_id = await send({ mode: "task", session_id: "s-killed", text: "killed midway" });
    const live = await openStream(url, "s-killed", 0);
    await live.waitFor((e) => e.type === "screen.live");
    live.close();
    await send({ session_id: "s-killed-chat", text: "killed while answering" });
    const answering = await openStream(url, "s-killed-chat", 0);
    await answering.waitFor((e) => e.type === "chat.started");
    answering.close();
    await kill();

    const app = await startApp({ modelBaseUrl: model.baseUrl, dataDir });
    try {
      const { json } = await app.api<TaskReply>("GET", `/api/tasks/${task_id}`);
      expect(json.task.status).toBe("failed");
      expect(json.task.error).toEqual({ code: "INTERRUPTED", message: "interrupted: the server stopped while the task was running" });
      const events = await openStream(app.url, "s-killed", 0);
      const failed = await events.waitForEnd(task_id);
      events.close();
      expect(failed).toMatchObject({ type: "task.failed", error: { code: "INTERRUPTED" } });
      const chat = await openStream(app.url, "s-killed-chat", 0);
      expect(await chat.waitFor((e) => e.type === "chat.failed")).toMatchObject({ error: { code: "INTERRUPTED" } });
      chat.close();
    } finally {
      await app.close();
    }
  });

  it("keeps a task that waited for the person across kill -9: the person's answer resumes it where it was", async () => {
    const task = "Task: log in, then press it";
    model.route(
      (r) => planningText(r).includes(task),
      act("click", { x: 50, y: 50 }, "Looking around"),
      act("needs_user", { answer: "Please log in, then press I've done it." }, "Waiting for the login"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "Pressed it." }, "Finished"),
    );
    const attachment = { name: "login.txt", mime_type: "text/plain", data_url: `data:text/plain;base64,${Buffer.from("user: ada").toString("base64")}` };
    const waiting = await killedWhileAsking({ session_id: "s-waiting", text: "log in, then press it", start_url: pages.url("form.html"), attachments: [attachment] }, "task.awaiting_user");
    const { dataDir, task_id } = waiting;
    const seen = waiting.events.at(-1)!.id;

    const app = await startApp({ modelBaseUrl: model.baseUrl, dataDir });
    try {
      const before = (await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json;
      expect(before.task).toMatchObject({ status: "awaiting_user", answer: "Please log in, then press I've done it.", error: null });
      expect(before.steps.map((s) => s.action?.type)).toEqual(["click", "needs_user"]);
      // The page that was open reconnects where it left off.
      const events = await openStream(app.url, "s-waiting", seen);
      expect((await app.api("POST", "/api/chat/ack-user-action", { task_id })).status).toBe(202);
      expect(await events.completes(task_id)).toMatchObject({ answer: "Pressed it." });
      events.close();
      await pages.waitForRecord("clicked");
      const after = (await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json;
      expect(after.steps.map((s) => s.index)).toEqual([1, 2, 3, 4]);
      expect(after.steps.slice(0, 2)).toEqual(before.steps);
      expect(after.task).toMatchObject({ status: "completed", current_step_index: 4, error: null });
      // The planner picked up with the steps so far and the person's answer, on the page it was on.
      const resumed = model.requests.filter((r) => planningText(r).includes(task))[2]!;
      expect(planningText(resumed)).toContain('Step 1: click (50, 50) "Looking around" →');
      expect(planningText(resumed)).toContain('Step 2: needs user "Waiting for the login"');
      expect(planningText(resumed)).toContain("The server restarted while the task waited for the person");
      expect(planningText(resumed)).toContain("they answered: I've done it");
      expect(planningText(resumed)).toContain("form.html");
      expect(planningText(resumed)).toContain("Attachment 1: login.txt (text/plain):\nuser: ada");
      // Event ids go on from where the killed server stopped: none again, none skipped over.
      const ids = events.events.map((e) => e.id);
      expect(ids[0]).toBeGreaterThan(seen);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(ids).size).toBe(ids.length);
      expect(kinds(events.events)).toEqual(["task.resumed", "progress.append", "progress.append", "task.completed"]);
      const replay = await openStream(app.url, "s-waiting", 0);
      await replay.waitForEnd(task_id);
      replay.close();
      expect(kept(replay.events).map((e) => e.id)).toEqual([...kept(waiting.events), ...kept(events.events)].map((e) => e.id));
      expect(kept(replay.events).map((e) => e.type)).toEqual([
        "task.started",
        "progress.append",
        "progress.append",
        "task.awaiting_user",
        "task.resumed",
        "progress.append",
        "progress.append",
        "task.completed",
      ]);
    } finally {
      await app.close();
    }
  });

  it("after kill -9, a message sent to the chat answers the task that waits for the person, rather than starting another", async () => {
    const task = "Task: sign in, then press it";
    model.route(
      (r) => planningText(r).includes(task),
      act("needs_user", { answer: "Please sign in." }, "Waiting for the sign-in"),
      act("done", { answer: "Signed in." }, "Finished"),
    );
    const waiting = await killedWhileAsking({ session_id: "s-waiting-chat", text: "sign in, then press it", start_url: pages.url("form.html") }, "task.awaiting_user");
    const { dataDir, task_id } = waiting;

    const app = await startApp({ modelBaseUrl: model.baseUrl, dataDir });
    try {
      const events = await openStream(app.url, "s-waiting-chat", waiting.events.at(-1)!.id);
      const file = { name: "code.txt", mime_type: "text/plain", data_url: "data:text/plain;base64,MTIzNA==" };
      const withFile = await app.api<{ error: { code: string } }>("POST", "/api/chat/send", { session_id: "s-waiting-chat", text: "here", attachments: [file] });
      expect(withFile.status).toBe(409);
      expect(withFile.json.error.code).toBe("FOLLOW_UP_REFUSED");
      const reply = await app.api<{ task_id: string; message_id: string }>("POST", "/api/chat/send", { session_id: "s-waiting-chat", text: "signed in as Ada" });
      expect(reply.status).toBe(202);
      expect(reply.json.task_id).toBe(task_id);
      expect(await events.completes(task_id)).toMatchObject({ answer: "Signed in." });
      events.close();
      expect(planningText(model.requests.filter((r) => planningText(r).includes(task))[1]!)).toContain("they answered: signed in as Ada");
      const { json } = await app.api<{ tasks: { id: string }[] }>("GET", "/api/sessions/s-waiting-chat/tasks");
      expect(json.tasks.map((t) => t.id)).toEqual([task_id]);
      const messages = (await app.api<{ messages: ChatMessage[] }>("GET", "/api/sessions/s-waiting-chat/messages")).json.messages;
      expect(messages.find((m) => m.id === reply.json.message_id)).toMatchObject({ role: "user", text: "signed in as Ada", task_id });
    } finally {
      await app.close();
    }
  });

  it("after kill -9, an answered approval resumes the task, whose planner looks again and decides anew", async () => {
    const task = "Task: delete my account";
    const press = act("click", { x: 180, y: 120 }, "Deleting the account");
    model.route((r) => planningText(r).includes(task), press, press, act("done", { answer: "Deleted." }, "Finished"));
    const { dataDir, task_id, asked } = await killedWhileAsking({ session_id: "s-approving", text: "delete my account", start_url: pages.url("approvals.html") }, "approval.requested");

    const app = await startApp({ modelBaseUrl: model.baseUrl, dataDir, config: { approvals: DEFAULT_APPROVAL_POLICY } });
    try {
      const events = await openStream(app.url, "s-approving", 0);
      // A message is no decision: it is refused, and starts no second task.
      const message = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/send", { session_id: "s-approving", text: "yes, go ahead" });
      expect(message.status).toBe(409);
      expect(message.json.error).toMatchObject({ code: "FOLLOW_UP_REFUSED", message: expect.stringContaining("allow or deny it") });
      expect((await app.api<{ tasks: unknown[] }>("GET", "/api/sessions/s-approving/tasks")).json.tasks).toHaveLength(1);
      expect((await app.api("POST", "/api/chat/approve", { task_id, approval_id: asked.approval.id, approved: true })).status).toBe(202);
      const again = (await events.waitFor((e) => e.type === "approval.requested" && e.approval.id !== asked.approval.id)) as typeof asked;
      expect(pages.records).not.toContain("deleted");
      expect((await app.api("POST", "/api/chat/approve", { task_id, approval_id: again.approval.id, approved: true })).status).toBe(202);
      expect(await events.completes(task_id)).toMatchObject({ answer: "Deleted." });
      events.close();
      await pages.waitForRecord("deleted");
      const resumed = model.requests.filter((r) => planningText(r).includes(task))[1]!;
      expect(planningText(resumed)).toContain("they allowed it, but it was not done: look again and decide");
    } finally {
      await app.close();
    }
  });

  it("after kill -9, an answered task that must wait for a place leaves its question at once and goes on when one is free", async () => {
    const task = "Task: delete it when you can";
    model.route((r) => planningText(r).includes(task), act("click", { x: 180, y: 120 }, "Deleting the account"), act("done", { answer: "Left it." }, "Finished"));
    // Other stories on this page delete; this one is refused.
    const deletions = () => pages.records.filter((r) => r === "deleted").length;
    const deletedBefore = deletions();
    const asking = await killedWhileAsking({ session_id: "s-answered-queued", text: "delete it when you can", start_url: pages.url("approvals.html") }, "approval.requested");
    const { dataDir, task_id, asked } = asking;

    const app = await startApp({ modelBaseUrl: model.baseUrl, dataDir, config: { approvals: DEFAULT_APPROVAL_POLICY, limits: { maxConcurrentTasks: 1 } } });
    try {
      // Another session's task holds the only place.
      const { held, open } = gate();
      model.route((r) => planningText(r).includes("Task: hold the place"), { ...act("done", { answer: "Held it." }, "Done"), until: held });
      const holder = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-holder", text: "hold the place" });
      const holding = await openStream(app.url, "s-holder", 0);
      await holding.waitFor((e) => e.type === "task.started");
      const events = await openStream(app.url, "s-answered-queued", asking.events.at(-1)!.id);
      const approve = () => app.api("POST", "/api/chat/approve", { task_id, approval_id: asked.approval.id, approved: false });
      expect((await approve()).status).toBe(202);
      // The question leaves the chat at once: the decision is told, and the task waits, queued.
      await events.waitFor((e) => e.type === "task.queued");
      expect((await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json.task.status).toBe("queued");
      expect((await app.api<{ sessions: Session[] }>("GET", "/api/sessions")).json.sessions.find((s) => s.id === "s-answered-queued")!.status).toBe("waiting");
      expect((await approve()).status).toBe(409);
      open();
      expect(await holding.completes(holder.json.task_id)).toMatchObject({ answer: "Held it." });
      expect(await events.completes(task_id)).toMatchObject({ answer: "Left it." });
      const told = kept(events.events);
      expect(told.map((e) => e.type)).toEqual(["approval.resolved", "task.queued", "task.resumed", "progress.append", "task.completed"]);
      expect(told.find((e) => e.type === "task.resumed")!.at >= holding.events.find((e) => e.type === "task.completed")!.at).toBe(true);
      for (const stream of [holding, events]) stream.close();
      expect(deletions()).toBe(deletedBefore);
    } finally {
      await app.close();
    }
  });

  it("after kill -9, the tool agent waiting for an approval goes on from its recorded calls once the person answers", async () => {
    const goal = "Close my account with the tools";
    const agent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
    const calls = (...list: [string, unknown][]): Reply => ({ chat: { text: "Working on it.", calls: list.map(([name, args]) => ({ name, arguments: args })) } });
    const deleteIt = calls(["act", { action: "click the Delete account button" }]);
    model.route(agent, calls(["ariaTree", {}]), deleteIt, deleteIt, calls(["close", { reasoning: "The account is deleted.", taskComplete: true }]));
    const chooseDelete = (r: RecordedRequest): Reply => {
      const ref = /- button "Delete account"[^\n]*\[ref=([a-z0-9]+)\]/.exec(userText(r))?.[1];
      return { text: JSON.stringify({ ref, method: "click" }) };
    };
    model.route((r) => systemText(r).startsWith("You choose elements") && userText(r).includes("approvals.html"), chooseDelete, chooseDelete);
    // Other stories on this page delete too.
    const deletions = () => pages.records.filter((r) => r === "deleted").length;
    const deletedBefore = deletions();
    const asking = await killedWhileAsking({ agent_mode: "dom", session_id: "s-tools-waiting", text: goal, start_url: pages.url("approvals.html") }, "approval.requested");
    const { dataDir, task_id, asked } = asking;

    const app = await startApp({ modelBaseUrl: model.baseUrl, dataDir, config: { approvals: DEFAULT_APPROVAL_POLICY } });
    try {
      const before = (await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json;
      expect(before.task).toMatchObject({ status: "awaiting_user", mode: "dom", approval: { id: asked.approval.id }, error: null });
      expect(before.steps.map((s) => s.tool?.name)).toEqual(["ariaTree"]);
      const events = await openStream(app.url, "s-tools-waiting", asking.events.at(-1)!.id);
      expect((await app.api("POST", "/api/chat/approve", { task_id, approval_id: asked.approval.id, approved: true })).status).toBe(202);
      // The lost call is not done: the model, told so, calls it again, and the person is asked again.
      const again = (await events.waitFor((e) => e.type === "approval.requested")) as typeof asked;
      expect(again.approval.id).not.toBe(asked.approval.id);
      expect(deletions()).toBe(deletedBefore);
      expect((await app.api("POST", "/api/chat/approve", { task_id, approval_id: again.approval.id, approved: true })).status).toBe(202);
      expect(await events.completes(task_id)).toMatchObject({ answer: "The account is deleted." });
      events.close();
      await expect.poll(deletions).toBe(deletedBefore + 1);
      expect(kinds(events.events)).toEqual([
        "approval.resolved",
        "task.resumed",
        "approval.requested",
        "approval.resolved",
        "task.resumed",
        "progress.append",
        "progress.append",
        "task.completed",
      ]);
      const after = (await app.api<TaskReply>("GET", `/api/tasks/${task_id}`)).json;
      expect(after.steps.map((s) => s.tool?.name)).toEqual(["ariaTree", "act", "close"]);
      expect(after.steps[0]).toEqual(before.steps[0]);
      // The model read its own earlier call and its answer, then what happened and the page opened again.
      const resumed = model.requests.filter(agent)[2]!;
      const messages = resumed.body.messages;
      const recalled = messages.findIndex((m) => JSON.stringify(m.tool_calls ?? []).includes("ariaTree"));
      expect(recalled).toBeGreaterThan(0);
      expect(messages[recalled + 1]).toMatchObject({ role: "tool" });
      expect(JSON.stringify(messages[recalled + 1]!.content)).toContain("Delete account");
      expect(userText(resumed)).toContain('The server restarted while the task waited for approval of "click the Delete account button"');
      expect(userText(resumed)).toContain("they allowed it, but it was not done: look again and decide");
      expect(userText(resumed)).toContain(`The page was opened again at ${pages.url("approvals.html")}`);
    } finally {
      await app.close();
    }
  });
});

describe("a crashed browser", () => {
  it("fails the running task with BROWSER_CRASHED, and the next task starts a new browser", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl });
    try {
      model.route((r) => planningText(r).includes("Task: crash"), { ...act("click", { x: 200, y: 130 }), delayMs: 800 });
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-crash", text: "crash", start_url: pages.url("form.html") });
      const events = await openStream(app.url, "s-crash", 0);
      await events.waitFor((e) => e.type === "screen.live");
      killChildChromium();
      const end = (await events.waitForEnd(json.task_id)) as Extract<SessionEvent, { type: "task.failed" }>;
      events.close();
      expect(end.type).toBe("task.failed");
      expect(end.error).toEqual({ code: "BROWSER_CRASHED", message: "The browser closed unexpectedly." });

      model.route((r) => planningText(r).includes("Task: after the crash"), act("click", { x: 200, y: 130 }), act("done", { answer: "fine again" }));
      const next = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-crash", text: "after the crash", start_url: pages.url("form.html") });
      const again = await openStream(app.url, "s-crash", 0);
      expect(await again.completes(next.json.task_id)).toMatchObject({ answer: "fine again" });
      again.close();
    } finally {
      await app.close();
    }
  });
});

function killChildChromium(): void {
  const pids = execFileSync("pgrep", ["-P", String(process.pid)]).toString().trim().split("\n");
  const chromium = pids.filter((pid) => existsSync(`/proc/${pid}/cmdline`) && /chrom/i.test(execFileSync("cat", [`/proc/${pid}/cmdline`]).toString()));
  expect(chromium.length).toBeGreaterThan(0);
  for (const pid of chromium) process.kill(Number(pid), "SIGKILL");
}

/**
 * Sends a task to a server of its own and kills that server (-9) once the task asks the person
 * (`what`): the data dir it leaves, the task, the question, and the events up to it.
 */
async function killedWhileAsking<T extends "task.awaiting_user" | "approval.requested">(body: { session_id: string } & Record<string, unknown>, what: T) {
  const dataDir = await mkdtemp(path.join(tmpdir(), `easyagentcu-${body.session_id}-`));
  const first = await spawnServer(dataDir);
  try {
    const task_id = await first.send({ mode: "task", ...body });
    const asking = await openStream(first.url, body.session_id, 0);
    const asked = (await asking.waitFor((e) => e.type === what)) as Extract<SessionEvent, { type: T }>;
    asking.close();
    return { dataDir, task_id, asked, events: asking.events };
  } finally {
    await first.kill();
  }
}

/** A real `serve` process on the data dir (port 0: a port picked at random was once in use in CI), and kill -9 for it. */
const spawnServer = (dataDir: string) =>
  startProductProcess(["serve", "--port", "0"], { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", LOG_LEVEL: "silent", ALLOWED_ORIGINS: new URL(pages.url("")).origin }, /running at (\S+)/, dataDir);
