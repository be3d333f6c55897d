// A whole task on the desktop (COMPUTER=desktop): the server starts a virtual desktop of its own
// for the task, with a window manager and a terminal; the JSON planner clicks into the terminal
// and types a command, which a real shell runs; the desktop goes away with the task.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, app } = useWorld({ config: { computer: "desktop" } });

describe("a task on the desktop", () => {
  it("drives a real terminal through the planner and ends completed", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "easyagentcu-desktop-task-")), "out.txt");
    const task = "write a greeting to a file";
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      // The terminal needs a moment to open; the first look may come before it.
      { ...act("wait", { ms: 1000 }, "Waiting for the terminal"), delayMs: 500 },
      act("click", { x: 200, y: 100 }, "Clicking into the terminal"),
      act("type", { text: `echo 'Hello, World! 你好 @#$%^&*()' > ${file}\n` }, "Typing the command"),
      act("done", { answer: "Written." }, "Finished"),
    );
    const events = await openStream(app.url, "s-desktop", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop", text: task });
    expect(await events.waitForEnd(json.task_id, 60_000)).toMatchObject({ type: "task.completed", answer: "Written." });
    events.close();
    expect((await readFile(file, "utf8")).trim()).toBe("Hello, World! 你好 @#$%^&*()");
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => s.action?.type)).toEqual(["wait", "click", "type", "done"]);
    expect(steps[1]!.screenshot).toMatchObject({ width: 1280, height: 800 });
    expect(events.events.some((e) => e.type === "screen.live")).toBe(true);
  });

  it("refuses a start URL, which a desktop has nowhere to open", async () => {
    const reply = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-url", text: "x", start_url: "https://example.com/" });
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toContain("a desktop has no address bar");
  });
});
