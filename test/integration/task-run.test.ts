// A task runs end to end on a real page in a real Chromium: the scripted planner navigates,
// clicks a button and types into a field; the page changes; the events arrive in order; every
// step's screenshot is on disk.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { kinds, openStream } from "../support/sse.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

describe("a task on a local page", () => {
  it("navigates, clicks, types and completes with the answer", async () => {
    model.script(
      act("navigate", { url: pages.url("form.html") }, "Opening the form"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("type", { text: "Ada" }, "Typing the name"),
      act("done", { answer: "The form says **Typed Ada**." }, "Finished"),
    );
    // As seed 000's client does: subscribe first, then send (the session exists from the send on).
    const events = await openStream(app.url, "s-flow", 0);
    const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-flow", text: "Fill in the form" });
    expect(sent.status).toBe(202);
    const taskId = sent.json.task_id;
    const end = await events.waitForEnd(taskId);
    events.close();

    expect(end).toMatchObject({ type: "task.completed", answer: "The form says **Typed Ada**." });
    await pages.waitForRecord("clicked");
    await pages.waitForRecord("typed:Ada");

    const types = kinds(events.events);
    expect(types).toEqual(["task.started", "progress.append", "progress.append", "progress.append", "progress.append", "task.completed"]);
    const ids = events.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(events.events.some((e) => e.type === "screen.live")).toBe(true);

    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.task).toMatchObject({ status: "completed", current_step_index: 4, usage: { input_tokens: 4800, output_tokens: 240 } });
    expect(json.steps.map((s) => s.text)).toEqual(["Opening the form", "Pressing the button", "Typing the name", "Finished"]);
    expect(json.steps[1]).toMatchObject({ cursor_x: 200, cursor_y: 130, url: pages.url("form.html"), planner: "qwen:scripted-vl" });
    for (const [i, step] of json.steps.entries()) {
      const file = path.join(app.dataDir, "sessions", "s-flow", "tasks", taskId, "frames", `${String(i + 1).padStart(4, "0")}.jpg`);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(1000);
      const image = await fetch(`${app.url}${step.screenshot?.url}`);
      expect(image.headers.get("content-type")).toBe("image/jpeg");
    }
  });

  it("sends the task, the history and the screenshot to the model as PROTOCOL.md fixes", async () => {
    const planning = model.requests.filter((r) => planningText(r).includes("Fill in the form"));
    expect(planning).toHaveLength(4);
    const request = planning[2]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body).toMatchObject({ model: "scripted-vl", response_format: { type: "json_object" }, stream: false });
    const [system, user] = request.body.messages;
    expect(system?.role).toBe("system");
    expect(user?.role).toBe("user");
    const parts = user?.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(["text", "image_url"]);
    expect(parts[0]?.text).toContain("Task: Fill in the form");
    expect(parts[0]?.text).toContain("Step: 3");
    expect(parts[0]?.text).toContain("Screenshot size: 1280×800 pixels");
    expect(parts[0]?.text).toContain(`Step 2: click (200, 130) "Pressing the button" → changed ✓`);
    expect(parts[1]?.image_url?.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it("runs tasks of different sessions at the same time, each in its own browser context", async () => {
    const script = (session: string) => [
      act("navigate", { url: pages.url(`form.html?${session}`) }, "Opening"),
      { ...act("click", { x: 200, y: 130 }, "Pressing"), delayMs: 300 },
      act("done", { answer: `done ${session}` }, "Done"),
    ];
    model.route((r) => planningText(r).includes("Task: parallel A"), ...script("A"));
    model.route((r) => planningText(r).includes("Task: parallel B"), ...script("B"));
    const [a, b] = await Promise.all([
      app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-par-a", text: "parallel A" }),
      app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-par-b", text: "parallel B" }),
    ]);
    const [streamA, streamB] = await Promise.all([openStream(app.url, "s-par-a", 0), openStream(app.url, "s-par-b", 0)]);
    const [endA, endB] = await Promise.all([streamA.waitForEnd(a.json.task_id), streamB.waitForEnd(b.json.task_id)]);
    streamA.close();
    streamB.close();
    expect(endA).toMatchObject({ type: "task.completed", answer: "done A" });
    expect(endB).toMatchObject({ type: "task.completed", answer: "done B" });
    // Each ran while the other was running.
    const startedA = streamA.events.find((e) => e.type === "task.started")!.at;
    const startedB = streamB.events.find((e) => e.type === "task.started")!.at;
    expect(startedA < endB.at && startedB < endA.at).toBe(true);
  });
});

describe("the cap on tasks at once", () => {
  it("keeps a task queued while the cap is taken, then runs it; one stopped while queued ends at once", async () => {
    const capped = await startApp({ modelBaseUrl: model.baseUrl, config: { limits: { maxConcurrentTasks: 1 } } });
    try {
      model.route((r) => planningText(r).includes("Task: first in line"), act("wait", { ms: 1500 }, "Waiting"), act("done", { answer: "first" }));
      model.route((r) => planningText(r).includes("Task: second in line"), act("done", { answer: "second" }));
      const send = (session: string, text: string) => capped.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text });
      const first = await send("s-cap-1", "first in line");
      const second = await send("s-cap-2", "second in line");
      const third = await send("s-cap-3", "third in line");
      const [one, two, three] = await Promise.all(["s-cap-1", "s-cap-2", "s-cap-3"].map((s) => openStream(capped.url, s, 0)));
      await one!.waitFor((e) => e.type === "task.started");
      expect((await capped.api<TaskReply>("GET", `/api/tasks/${second.json.task_id}`)).json.task.status).toBe("queued");
      // Seed 000 §3.2: started as soon as it is sent, queued; `task.running` once it has its place.
      expect(await two!.waitFor((e) => e.type === "task.started")).toMatchObject({ task: { id: second.json.task_id, status: "queued" } });
      expect((await capped.api("POST", "/api/chat/stop", { task_id: third.json.task_id })).status).toBe(202);
      expect(await three!.waitForEnd(third.json.task_id)).toMatchObject({ type: "task.stopped" });
      expect(three!.events.map((e) => e.type)).toEqual(["task.started", "task.stopped"]);
      const endOne = await one!.waitForEnd(first.json.task_id);
      expect(await two!.completes(second.json.task_id)).toMatchObject({ answer: "second" });
      expect(two!.events.find((e) => e.type === "task.started")!.at < endOne.at).toBe(true);
      expect(two!.events.find((e) => e.type === "task.running")!.at >= endOne.at).toBe(true);
      expect(one!.events.some((e) => e.type === "task.running")).toBe(false);
      for (const stream of [one, two, three]) stream!.close();
    } finally {
      await capped.close();
    }
  });
});

describe("attachments", () => {
  it("keeps attached files on disk and gives images and text files to the planner", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    model.route((r) => planningText(r).includes("Task: use the files"), act("done", { answer: "read them" }));
    const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", {
      mode: "task",
      session_id: "s-files",
      text: "use the files",
      attachments: [
        { name: "dot.png", mime_type: "image/png", data_url: `data:image/png;base64,${png}` },
        { name: "notes.txt", mime_type: "text/plain", data_url: `data:text/plain;base64,${Buffer.from("remember the milk").toString("base64")}` },
        { name: "../../escape.bin", mime_type: "application/octet-stream", data_url: "data:application/octet-stream;base64,AAEC" },
      ],
    });
    const events = await openStream(app.url, "s-files", 0);
    await events.waitForEnd(sent.json.task_id);
    events.close();

    const request = model.requests.find((r) => planningText(r).includes("Task: use the files"))!;
    const parts = request.body.messages[1]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(["text", "image_url", "text", "text", "text", "image_url"]);
    expect(parts[0]?.text).toBe("Attachment 1: dot.png (image/png), the image below:");
    expect(parts[1]?.image_url?.url).toBe(`data:image/png;base64,${png}`);
    expect(parts[2]?.text).toBe("Attachment 2: notes.txt (text/plain):\nremember the milk");
    expect(parts[3]?.text).toBe("Attachment 3: ../../escape.bin (application/octet-stream): not shown: a model reads images, text (CSV, JSON, code) and PDFs, and this file is none of them.");

    const { json } = await app.api<{ messages: { kind: string; attachments: unknown[] }[] }>("GET", "/api/sessions/s-files/messages");
    expect(json.messages[0]?.attachments).toEqual([
      { name: "dot.png", mime_type: "image/png" },
      { name: "notes.txt", mime_type: "text/plain" },
      { name: "../../escape.bin", mime_type: "application/octet-stream" },
    ]);
    const dir = path.join(app.dataDir, "sessions", "s-files", "attachments");
    const [messageDir] = readdirSync(dir);
    expect(readdirSync(path.join(dir, messageDir!)).sort()).toEqual(["1-dot.png", "2-notes.txt", "3-escape.bin"]);
  });
});
