// A whole task on the desktop (COMPUTER=desktop): the server starts a virtual desktop of its own
// for the task, with a window manager and a terminal; the JSON planner clicks into the terminal
// and types a command, which a real shell runs; the desktop goes away with the task.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { DesktopComputer } from "../../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../../src/computers/desktop/virtual-display.ts";
import { startApp } from "../support/app.ts";
import { gate } from "../support/gate.ts";
import { desktopFolder, fileText, TERMINAL } from "../support/terminal.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, app } = useWorld({ config: { computer: "desktop", desktop: { apps: [TERMINAL] } } });

describe("a task on the desktop", () => {
  it("drives a real terminal through the planner and ends completed", async () => {
    const file = path.join(await desktopFolder("easyagentcu-desktop-task-"), "out.txt");
    const task = "write a greeting to a file";
    const written = fileText(file);
    // The planner's first answer waits until the live view shows the terminal up and focused.
    let terminalUp = () => {};
    const up = new Promise<void>((resolve) => (terminalUp = resolve));
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("click", { x: 200, y: 100 }, "Clicking into the terminal"), until: up },
      act("type", { text: `echo 'Hello, World! 你好 @#$%^&*()' > ${file}\n` }, "Typing the command"),
      act("wait", { ms: 500 }, "Letting the command run"),
      // The desktop goes away with the task, so the planner is done once the shell has run the
      // command, as a person would see it has: on a busy machine the shell may start after the typing.
      { ...act("done", { answer: "Written." }, "Finished"), until: written },
    );
    const events = await openStream(app.url, "s-desktop", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop", text: task });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
    terminalUp();
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Written." });
    events.close();
    expect((await written).trim()).toBe("Hello, World! 你好 @#$%^&*()");
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => s.action?.type)).toEqual(["click", "type", "wait", "done"]);
    expect(steps[0]!.screenshot).toMatchObject({ width: 1280, height: 800 });
    // The typed line is a sliver of the screen, and still an effect.
    expect(steps[1]!.effect).toMatchObject({ changed: true });
    // The focused window is told to the model, as it is shown over the live view.
    const planned = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
    expect(planningText(planned.at(-1)!)).toMatch(/Active window: ".*" \(XTerm\)/);
  });

  it("waits for a program that answers a click late instead of clicking it again", async () => {
    const file = path.join(await desktopFolder("easyagentcu-desktop-late-"), "clicks.txt");
    const late = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { apps: [`python3 ${path.join(import.meta.dirname, "../fixtures/desktop/late.py")} ${file}`] } } });
    try {
      const task = "load the thing";
      let windowUp = () => {};
      const up = new Promise<void>((resolve) => (windowUp = resolve));
      const answered = fileText(file);
      model.route(
        (r) => planningText(r).includes(`Task: ${task}`),
        // The screen the click is compared with shows the window.
        { ...act("wait", { ms: 300 }, "Waiting for the window"), until: up },
        act("click", { x: 250, y: 170 }, "Loading"),
        // The desktop goes away with the task: done once the program has answered.
        { ...act("done", { answer: "Loaded." }, "Finished"), until: answered },
      );
      const events = await openStream(late.url, "s-desktop-late", 0);
      const { json } = await late.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-late", text: task });
      await events.waitFor((e) => e.type === "screen.live" && e.window?.startsWith("Late answer") === true, 30_000);
      windowUp();
      expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Loaded." });
      events.close();
      // Its answer came 400 ms after the click: that is the click's effect, and it was clicked once.
      const { steps } = (await late.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(steps[1]!.effect).toMatchObject({ changed: true, retries: 0 });
      await delay(1_000);
      expect(await readFile(file, "utf8")).toBe("clicked\n");
    } finally {
      await late.close();
    }
  });

  it("refuses a start URL, which a desktop has nowhere to open", async () => {
    const reply = await app.api<{ error: { code: string; message: string } }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-url", text: "x", start_url: "https://example.com/" });
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toContain("a desktop has no address bar");
  });
});

describe("a task on a display of the person's own (DESKTOP_DISPLAY)", () => {
  it("stops when the person moves the pointer to the top-left corner (the fail-safe)", async () => {
    const display = await VirtualDisplay.start({ width: 1024, height: 768, windowManager: "openbox" });
    const own = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { display: display.name } } });
    const person = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0 });
    try {
      const { held, open: release } = gate();
      const task = "click around for a while";
      model.route((r) => planningText(r).includes(`Task: ${task}`), act("click", { x: 300, y: 300 }, "Clicking"), { ...act("click", { x: 400, y: 300 }, "Clicking again"), until: held });
      const events = await openStream(own.url, "s-failsafe", 0);
      const { json } = await own.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-failsafe", text: task });
      await events.waitFor((e) => e.type === "progress.append");
      await person.move(0, 0);
      release();
      expect(await events.waitForEnd(json.task_id)).toMatchObject({ type: "task.stopped", reason: "the pointer was moved to the top-left corner of the screen (the fail-safe)" });
      events.close();
      const { steps } = (await own.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(steps.map((s) => s.screenshot?.width)).toEqual([1024]);
    } finally {
      await person.close();
      await own.close();
      await display.close();
    }
  });
});

describe("the focused window for the other planners", () => {
  it("is told to Anthropic's computer use with every screenshot", async () => {
    const own = await startApp({
      modelBaseUrl: model.baseUrl,
      config: { computer: "desktop", desktop: { apps: [TERMINAL] }, model: { provider: "anthropic", name: "claude-test", apiKey: "sk-ant-test" } },
    });
    try {
      const task = "look at the terminal";
      const message = (id: string, content: unknown[], stop: string) => ({
        message: { id, type: "message", role: "assistant", model: "claude-test", content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } },
      });
      let terminalUp = () => {};
      const up = new Promise<void>((resolve) => (terminalUp = resolve));
      const asked = (r: { body: unknown }) => JSON.stringify(r.body).includes(`Task: ${task}`);
      model.route(
        asked,
        { ...message("msg_w1", [{ type: "tool_use", id: "toolu_w1", name: "computer", input: { action: "left_click", coordinate: [200, 100] } }], "tool_use"), until: up },
        message("msg_w2", [{ type: "text", text: "The terminal is open." }], "end_turn"),
      );
      const events = await openStream(own.url, "s-window-claude", 0);
      const { json } = await own.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-window-claude", text: task });
      await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
      terminalUp();
      await events.completes(json.task_id, 60_000);
      events.close();
      const last = model.requests.filter(asked).at(-1)!;
      expect(JSON.stringify(last.body)).toMatch(/"tool_result".*Active window: \\".*\\" \(XTerm\)/);
    } finally {
      await own.close();
    }
  });
});
