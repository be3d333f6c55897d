// Faults the other stories do not cover, each ending in a stated state with nothing lost: a page's
// renderer killed under a task, a frame the disk refuses, a storm of reconnecting SSE clients, 20
// tasks sent at once, and the Chromium profile a server killed with SIGKILL leaves behind.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, type SessionEvent, type TaskReply, type TasksReply } from "../../src/protocol/index.ts";
import { childPids, commandLine, processesWith } from "../support/processes.ts";
import { act, planningText, systemText, type RecordedRequest } from "../support/scripted-model.ts";
import { kept, kinds, openStream, type EventStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";
import { gate } from "../support/gate.ts";

const { model, pages, app } = useWorld();

type Failed = Extract<SessionEvent, { type: "task.failed" }>;
type Appended = Extract<SessionEvent, { type: "progress.append" }>;
// Live frames and what the task was doing between steps are side news, not its record.

async function send(sessionId: string, text: string, startUrl?: string): Promise<string> {
  const { status, json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: sessionId, text, ...(startUrl ? { start_url: startUrl } : {}) });
  expect(status).toBe(202);
  return json.task_id;
}

function asked(task: string): number {
  return model.requests.filter((r) => planningText(r).includes(`Task: ${task}`)).length;
}

describe("a page's renderer killed under a running task", () => {
  it("fails the task with BROWSER_CRASHED saying the renderer crashed; the browser lives on and runs the next task", async () => {
    const killed = gate();
    model.route((r) => planningText(r).includes("Task: lose the tab"), { ...act("click", { x: 200, y: 130 }, "Pressing"), until: killed.held });
    const taskId = await send("s-renderer", "lose the tab", pages.url("form.html"));
    const events = await openStream(app.url, "s-renderer", 0);
    await expect.poll(() => asked("lose the tab")).toBe(1);
    const browser = ourChromium();
    const renderers = renderersOf(browser);
    expect(renderers.length).toBeGreaterThan(0);
    for (const pid of renderers) process.kill(pid, "SIGKILL");
    killed.open();

    const end = (await events.waitForEnd(taskId)) as Failed;
    events.close();
    const error = {
      code: "BROWSER_CRASHED",
      message: "The page's renderer crashed (it ran out of memory or its process was killed); the task cannot go on in that tab.",
    };
    expect(end).toMatchObject({ type: "task.failed", error });
    expect(kinds(events.events)).toEqual(["task.started", "task.failed"]);
    const stored = (await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json;
    expect(stored.task).toMatchObject({ status: "failed", error });

    // Only the renderer died: the same browser process runs the next task in a new tab.
    expect(ourChromium()).toBe(browser);
    model.route((r) => planningText(r).includes("Task: after the sad tab"), act("click", { x: 200, y: 130 }), act("done", { answer: "fine again" }));
    const next = await send("s-renderer", "after the sad tab", pages.url("form.html"));
    const again = await openStream(app.url, "s-renderer", end.id);
    expect(await again.completes(next)).toMatchObject({ answer: "fine again" });
    again.close();
  });
});

describe("a page's renderer killed under a tool-agent task", () => {
  it("fails the task with BROWSER_CRASHED at the call that met it, without asking the model again", async () => {
    const killed = gate();
    const isTask = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages).includes("Goal: read the lost tab");
    model.route(isTask, { chat: { calls: [{ name: "ariaTree", arguments: {} }] }, until: killed.held });
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-tool-renderer", text: "read the lost tab", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-tool-renderer", 0);
    await expect.poll(() => model.requests.filter(isTask).length).toBe(1);
    for (const pid of renderersOf(ourChromium())) process.kill(pid, "SIGKILL");
    killed.open();

    const end = (await events.waitForEnd(json.task_id)) as Failed;
    events.close();
    expect(end).toMatchObject({ type: "task.failed", error: { code: "BROWSER_CRASHED" } });
    expect(model.requests.filter(isTask)).toHaveLength(1);
  });
});

describe("a frame the disk refuses", () => {
  // Fails the task rather than going on without the frame: a step without its screen could not be
  // checked or replayed, and a disk that refuses one file refuses the next (agent/step-recorder.ts).
  it("fails the task with STORAGE_FAILED before recording the step; the steps, frames and events before it stay", async () => {
    const broken = gate();
    model.route(
      (r) => planningText(r).includes("Task: record until the disk fails"),
      act("click", { x: 200, y: 130 }, "First step"),
      { ...act("click", { x: 200, y: 200 }, "Second step"), until: broken.held },
      act("done", { answer: "never" }),
    );
    const taskId = await send("s-disk", "record until the disk fails", pages.url("form.html"));
    const events = await openStream(app.url, "s-disk", 0);
    const first = (await events.waitFor((e) => e.type === "progress.append")) as Appended;
    const frames = path.join(app.dataDir, "sessions", "s-disk", "tasks", taskId, "frames");
    const kept = await replaceWithFile(frames);
    broken.open();

    const end = (await events.waitForEnd(taskId)) as Failed;
    events.close();
    expect(end.error.code).toBe("STORAGE_FAILED");
    expect(end.error.message).toMatch(/^Could not write sessions\/s-disk\/tasks\/task_\w+\/frames\/0002\.jpg in the data directory \(E[A-Z]+\)/);
    expect(kinds(events.events)).toEqual(["task.started", "progress.append", "task.failed"]);
    const stored = (await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json;
    expect(stored.task).toMatchObject({ status: "failed", error: end.error, current_step_index: 1 });
    expect(stored.steps).toEqual([first.step]);

    // Once the disk is whole again, the first step's frame is there as it was written.
    await rm(frames);
    await rename(kept, frames);
    const image = await fetch(`${app.url}${first.step.screenshot!.url}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(await readFile(path.join(frames, "0001.jpg")))).toBe(true);
    model.route((r) => planningText(r).includes("Task: after the disk"), act("done", { answer: "recorded" }));
    const next = await send("s-disk", "after the disk", pages.url("form.html"));
    const again = await openStream(app.url, "s-disk", end.id);
    expect(await again.completes(next)).toMatchObject({ answer: "recorded" });
    again.close();
  });
});

describe("100 SSE clients reconnecting in a storm", () => {
  it("each ends with every event of the session, in order, as a client that never left saw them", async () => {
    const CLIENTS = 100;
    // Each step is let go only once every client has left and come back: the next wave of
    // reconnections meets the events the step makes.
    const waves = [gate(), gate(), gate(), gate()];
    model.route(
      (r) => planningText(r).includes("Task: weather the storm"),
      { ...act("click", { x: 200, y: 130 }, "one"), until: waves[0]!.held },
      { ...act("type", { text: "storm" }, "two"), until: waves[1]!.held },
      { ...act("keypress", { keys: ["Tab"] }, "three"), until: waves[2]!.held },
      { ...act("done", { answer: "weathered" }, "four"), until: waves[3]!.held },
    );
    const steady = await openStream(app.url, "s-storm");
    const taskId = await send("s-storm", "weather the storm", pages.url("form.html"));
    const clients: SessionEvent[][] = Array.from({ length: CLIENTS }, () => []);
    const lastId = (seen: SessionEvent[]) => seen.at(-1)?.id ?? 0;
    /** Connects with Last-Event-ID, takes what comes for a moment, and leaves. */
    const visit = async (seen: SessionEvent[], stay: (stream: EventStream) => Promise<unknown>) => {
      const stream = await openStream(app.url, "s-storm", lastId(seen));
      await stay(stream);
      // What it had when it left is what it saw; the next visit asks from there.
      seen.push(...stream.events);
      stream.close();
    };
    for (const wave of waves) {
      await Promise.all(clients.map((seen) => visit(seen, () => new Promise((r) => setTimeout(r, Math.random() * 50)))));
      wave.open();
    }
    await Promise.all(clients.map((seen) => visit(seen, (stream) => stream.waitForEnd(taskId))));
    await steady.waitForEnd(taskId);
    steady.close();

    const history = await openStream(app.url, "s-storm", 0);
    await history.waitForEnd(taskId);
    history.close();
    expect(history.events.filter((e) => e.type === "progress.append")).toHaveLength(4);
    // The client that never left saw every event, live frames too, numbered without a gap.
    expect(steady.events.map((e) => e.id)).toEqual(steady.events.map((_, i) => i + 1));
    expect(kept(steady.events)).toEqual(kept(history.events));
    const byId = new Map(steady.events.map((e) => [e.id, e]));
    for (const seen of clients) {
      const ids = seen.map((e) => e.id);
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
      expect(kept(seen)).toEqual(kept(history.events));
      // Of live frames a returning client gets only the latest; each is one the steady client saw.
      for (const event of seen) expect(event).toEqual(byId.get(event.id));
    }
  });
});

describe("20 tasks sent at once", () => {
  // Five rounds of four tasks, each opening a browser context: minutes on a busy 2-core machine.
  it("runs them across 20 sessions at most 4 at a time, the rest queued, and every one completes", { timeout: 180_000 }, async () => {
    expect(app.system.config.limits.maxConcurrentTasks).toBe(4);
    const answers = gate();
    const names = Array.from({ length: 20 }, (_, i) => `crowd ${String(i + 1).padStart(2, "0")}`);
    for (const name of names) model.route((r) => planningText(r).includes(`Task: ${name}`), { ...act("done", { answer: `${name} done` }), until: answers.held });
    const sessions = names.map((_, i) => `s-crowd-${i + 1}`);
    const streams = await Promise.all(sessions.map((session) => openStream(app.url, session)));
    const ids = await Promise.all(names.map((name, i) => send(sessions[i]!, name)));

    // The first four to start ask the model and are held there; none of the others may start meanwhile.
    await expect.poll(() => names.reduce((n, name) => n + asked(name), 0)).toBe(4);
    const statuses = await Promise.all(ids.map(async (id) => (await app.api<TaskReply>("GET", `/api/tasks/${id}`)).json.task.status));
    expect(statuses.filter((s) => s === "running")).toHaveLength(4);
    expect(statuses.filter((s) => s === "queued")).toHaveLength(16);
    answers.open();

    const ends = await Promise.all(streams.map((stream, i) => stream.waitForEnd(ids[i]!, 150_000)));
    for (const stream of streams) stream.close();
    expect(ends.map((e) => e.type === "task.completed" && e.answer)).toEqual(names.map((name) => `${name} done`));
    expect(names.map(asked)).toEqual(names.map(() => 1));
    for (const [i, session] of sessions.entries()) {
      const { tasks } = (await app.api<TasksReply>("GET", `/api/sessions/${session}/tasks`)).json;
      expect(tasks.map((t) => [t.id, t.status])).toEqual([[ids[i], "completed"]]);
    }
    // By the events' times, never more than four were running (from their start, or for a task
    // announced queued, from `task.running`) to their end; the sixteen queued were told at once.
    const began = (stream: (typeof streams)[number]) => stream.events.find((e) => e.type === "task.running") ?? stream.events.find((e) => e.type === "task.started")!;
    expect(streams.filter((stream) => stream.events.some((e) => e.type === "task.running"))).toHaveLength(16);
    const spans = streams.map((stream, i): [number, number] => [Date.parse(began(stream).at), Date.parse(ends[i]!.at)]);
    expect(mostAtOnce(spans)).toBe(4);
  });
});

describe("a server killed with SIGKILL", () => {
  it("leaves its Chromium profile behind, and the next server to start removes it", async () => {
    // Both servers get a temporary directory of their own: only what they leave is looked at.
    const tmp = await mkdtemp(path.join(tmpdir(), "easyagentcu-tmp-"));
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-killed-"));
    model.route((r) => planningText(r).includes("Task: leave a profile"), { ...act("done", { answer: "never" }), until: new Promise(() => {}) });
    const first = await serve(dataDir, tmp);
    let second: Served | undefined;
    try {
      const token = (await readFile(path.join(dataDir, "install-token"), "utf8")).trim();
      const sent = await fetch(`${first.url}/api/chat/send`, {
        method: "POST",
        headers: { "content-type": "application/json", [INSTALL_TOKEN_HEADER]: token },
        body: JSON.stringify({ mode: "task", session_id: "s-profile", text: "leave a profile" }),
      });
      expect(sent.status).toBe(202);
      await expect.poll(() => asked("leave a profile")).toBe(1);

      const left = await readdir(tmp);
      const launchDir = left.find((name) => name.startsWith(`easyagentcu-browser-${first.process.pid}-`));
      const profileDir = left.find((name) => name.startsWith("playwright_chromiumdev_profile-"));
      expect(launchDir).toBeDefined();
      expect(profileDir).toBeDefined();
      const profile = path.join(tmp, profileDir!);
      expect(await readFile(path.join(tmp, launchDir!, "profile"), "utf8")).toBe(profile);

      await first.kill();
      // Its browser notices its server is gone and exits; the profile stays, as nothing removes it.
      await expect.poll(() => processesWith(`--user-data-dir=${profile}`)).toEqual([]);
      expect(await readdir(tmp)).toEqual(expect.arrayContaining([launchDir, profileDir]));

      second = await serve(dataDir, tmp);
      expect(await readdir(tmp)).not.toContain(launchDir);
      expect(await readdir(tmp)).not.toContain(profileDir);
    } finally {
      await first.kill();
      await second?.kill();
      await Promise.all([tmp, dataDir].map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });
});

/** Moves a directory aside and puts a regular file in its place; returns where the directory went. */
async function replaceWithFile(dir: string): Promise<string> {
  // As root permissions stop no write, so a file where the frames go stands in for a full disk:
  // the same write fails the same way. A live frame written between the two calls makes the
  // directory again; then it is moved aside again.
  for (let attempt = 1; ; attempt++) {
    await rename(dir, `${dir}.kept-${attempt}`);
    try {
      await writeFile(dir, "not a directory", { flag: "wx" });
      return `${dir}.kept-1`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** The Chromium this file's app launched: its main process, a child of this test process. */
function ourChromium(): number {
  const browsers = childPids().filter((pid) => {
    const [program, ...args] = commandLine(pid);
    return /chrom/i.test(program ?? "") && !args.some((a) => a.startsWith("--type="));
  });
  expect(browsers).toHaveLength(1);
  return browsers[0]!;
}

/**
 * The renderers of a Chromium: the task's page's and any spare one, not the one that draws
 * Chromium's own UI, whose loss would take the browser with it.
 */
function renderersOf(browser: number): number[] {
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of childPids(pid)) {
      const args = commandLine(child);
      if (args.includes("--type=renderer") && !args.includes("--top-chrome-webui")) found.push(child);
      walk(child);
    }
  };
  walk(browser);
  return found;
}

/** The most spans open at one moment; one that ends as another starts does not overlap it. */
function mostAtOnce(spans: [number, number][]): number {
  const marks = spans.flatMap(([start, end]) => [
    { at: start, step: 1 },
    { at: end, step: -1 },
  ]);
  marks.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let most = 0;
  for (const mark of marks) most = Math.max(most, (open += mark.step));
  return most;
}

interface Served {
  url: string;
  process: ChildProcess;
  /** SIGKILL to the server's process group; resolves once it has exited. */
  kill(): Promise<void>;
}

/** `easyagentcu serve` in a process of its own, with its own temporary directory. */
async function serve(dataDir: string, tmp: string): Promise<Served> {
  const server = spawn(process.execPath, ["bin/easyagentcu.js", "serve", "--port", "0", "--data-dir", dataDir], {
    env: { ...process.env, TMPDIR: tmp, MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", LOG_LEVEL: "silent" },
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      const running = /running at (\S+)/.exec(chunk.toString())?.[1];
      if (running) resolve(running);
    });
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    process: server,
    async kill() {
      if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid!, "SIGKILL");
      await exited;
    },
  };
}
