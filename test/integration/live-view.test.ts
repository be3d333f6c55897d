// The live view costs nothing while nobody watches: a task whose session has no stream open sends
// no `screen.live` and writes no frame as its screen moves. A person who opens the stream later
// sees the screen as the task last saw it at once, then every change while they stay.
import { stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { followInProcess, openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";
import { gate } from "../support/gate.ts";

const { model, pages, app } = useWorld();

type Live = Extract<SessionEvent, { type: "screen.live" }>;

async function send(sessionId: string, text: string, startUrl: string): Promise<string> {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: sessionId, text, start_url: startUrl });
  return json.task_id;
}

const logged = async (sessionId: string) => (await app.system.store.events.since(sessionId, 0)).filter((e): e is Live => e.type === "screen.live");

describe("the live view", () => {
  it("sends nothing and writes no frame while nobody watches a moving page; a viewer gets frames until they leave", async () => {
    const watched = gate();
    model.route((r) => planningText(r).includes("Task: watch the clock"), { ...act("done", { answer: "Seen." }), until: watched.held });
    await app.system.store.ensureSession("s-unwatched", "live view");
    const follow = await followInProcess(app.system.store, "s-unwatched");
    const taskId = await send("s-unwatched", "watch the clock", pages.url("animated.html"));
    await expect.poll(() => model.requests.filter((r) => planningText(r).includes("Task: watch the clock")).length).toBe(1);

    // The page redraws every animation frame; unwatched, its first screen is stored once and no more.
    const live = path.join(app.dataDir, "sessions", "s-unwatched", "tasks", taskId, "frames", "live.jpg");
    await expect.poll(() => stat(live).then(() => true, () => false)).toBe(true);
    const written = (await stat(live)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await stat(live)).mtimeMs).toBe(written);
    expect(await logged("s-unwatched")).toEqual([]);
    expect(follow.events.filter((e) => e.type === "screen.live")).toEqual([]);

    // A viewer comes: the frames flow, each one's image served.
    const viewer = await openStream(app.url, "s-unwatched", follow.events.at(-1)!.id);
    const liveFrames = () => viewer.events.filter((e): e is Live => e.type === "screen.live" && e.task_id === taskId);
    await expect.poll(() => liveFrames().length).toBeGreaterThan(3);
    const frames = liveFrames();
    expect(frames.at(-1)).toMatchObject({ url: pages.url("animated.html"), frame: { width: 1280, height: 800 } });
    const image = await fetch(`${app.url}${frames.at(-1)!.frame.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");

    // Once they leave, the frames stop again.
    viewer.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const last = (await logged("s-unwatched")).at(-1)!.id;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await logged("s-unwatched")).at(-1)!.id).toBe(last);

    watched.open();
    await follow.waitForEnd(taskId);
    follow.close();
    // The task's last screen is stored for after it ended.
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect((await fetch(`${app.url}${json.task.live_frame!.url}`)).status).toBe(200);
  });

  it("shows a viewer who comes late the screen as the last step left it, at once", async () => {
    const held = gate();
    model.route(
      (r) => planningText(r).includes("Task: press and wait"),
      act("click", { x: 200, y: 130 }, "Pressing"),
      { ...act("done", { answer: "Pressed." }), until: held.held },
    );
    await app.system.store.ensureSession("s-late", "live view");
    const follow = await followInProcess(app.system.store, "s-late");
    const taskId = await send("s-late", "press and wait", pages.url("form.html"));
    const step = await follow.waitFor((e) => e.type === "progress.append");
    if (step.type !== "progress.append") throw new Error("not a step");

    // Unwatched, the task's live frame is the step's own screenshot: the page as the click left it.
    const stepImage = Buffer.from(await (await fetch(`${app.url}${step.step.screenshot!.url}`)).arrayBuffer());
    const liveImage = async () => {
      const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
      return Buffer.from(await (await fetch(`${app.url}${json.task.live_frame!.url}`)).arrayBuffer());
    };
    await expect.poll(async () => (await liveImage()).equals(stepImage)).toBe(true);
    expect(await logged("s-late")).toEqual([]);

    const viewer = await openStream(app.url, "s-late", follow.events.at(-1)!.id);
    const first = (await viewer.waitFor((e) => e.type === "screen.live", 10_000)) as Live;
    expect(first).toMatchObject({ task_id: taskId, url: pages.url("form.html") });
    viewer.close();

    held.open();
    await follow.waitForEnd(taskId);
    follow.close();
  });
});
