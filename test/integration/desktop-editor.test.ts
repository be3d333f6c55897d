// A text editor on the virtual desktop: the JSON planner types a line with symbols and CJK into a
// real Mousepad and saves it with Ctrl+S (the CJK goes in as a paste from the clipboard the
// computer owns), and the file on disk holds the line byte for byte. And the everyday programs
// are where a person looks for them: a right click on the desktop opens the root menu.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { DesktopComputer } from "../../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../../src/computers/desktop/virtual-display.ts";
import { X11Session } from "../../src/computers/desktop/x11-session.ts";
import { startApp } from "../support/app.ts";
import { desktopFolder } from "../support/terminal.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model } = useWorld({ app: false });
const LINE = "Hello, World! 你好 @#$%^&*()";

/** Polls until the predicate holds, or gives up after `ms`. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  let value = await read();
  for (const deadline = performance.now() + ms; !done(value) && performance.now() < deadline; value = await read()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return value;
}

describe("the text editor on the desktop", () => {
  it("types a line with symbols and CJK into Mousepad through the planner, and Ctrl+S saves it byte for byte", async () => {
    const file = path.join(await desktopFolder("easyagentcu-editor-"), "note.txt");
    // Opened on a path of its own, the editor saves there without a dialog.
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { apps: [`mousepad ${file}`] } } });
    try {
      const task = "write a greeting in the editor and save it";
      let editorUp = () => {};
      const up = new Promise<void>((resolve) => (editorUp = resolve));
      model.route(
        (r) => planningText(r).includes(`Task: ${task}`),
        // The editor's window is in the middle of the screen; its text area fills most of it.
        { ...act("click", { x: 640, y: 430 }, "Clicking into the editor"), until: up },
        act("type", { text: LINE }, "Typing the greeting"),
        act("keypress", { keys: ["Control", "s"] }, "Saving"),
        act("done", { answer: "Saved." }, "Finished"),
      );
      const events = await openStream(app.url, "s-editor", 0);
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-editor", text: task });
      await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— Mousepad") === true, 30_000);
      editorUp();
      expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Saved." });
      events.close();
      const saved = await eventually(() => readFile(file).catch(() => Buffer.alloc(0)), (bytes) => bytes.length > 0);
      expect(saved.toString("hex")).toBe(Buffer.from(LINE, "utf8").toString("hex"));
      const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(steps.map((s) => s.action?.type)).toEqual(["click", "type", "keypress", "done"]);
      expect(steps[1]!.effect).toMatchObject({ changed: true });
      // Saved, the editor's title loses its mark of unsaved changes; the model is told the title.
      const planned = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
      expect(planningText(planned.at(-1)!)).toContain(`Active window: "${file} - Mousepad" (Mousepad)`);
    } finally {
      await app.close();
    }
  });
});

describe("the desktop's root menu", () => {
  it("opens the text editor from a right click on the desktop, and closing the desktop stops it", async () => {
    const display = await VirtualDisplay.start({ width: 1280, height: 800, windowManager: "openbox" });
    const desktop = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0 });
    const x = await X11Session.connect(display.name);
    let editorPid = 0;
    try {
      const empty = (await desktop.screenshot()).data;
      await desktop.click(600, 400, "right");
      // The menu is on the screen, and has the keyboard: Terminal, Text editor, Files; the second entry.
      await eventually(() => desktop.screenshot(), (shot) => !shot.data.equals(empty));
      // The pointer leaves the menu, which opened under it: an item the pointer enters takes the
      // highlight, and on a loaded machine that can come after the Down presses below.
      await desktop.move(100, 100);
      // The screen as it rests: two captures in a row alike (a loaded machine draws late).
      const still = async () => {
        let last = (await desktop.screenshot()).data;
        const shot = await eventually(
          () => desktop.screenshot(),
          (next) => {
            const same = next.data.equals(last);
            last = next.data;
            return same;
          },
        );
        return shot.data;
      };
      // Each Down moves the highlight once the menu has the keyboard; one the menu missed (it took
      // the keyboard late) shows no change within 5 s and is pressed again. A move is counted only
      // once the screen rests again, so a slow redraw is never taken for a second move.
      let resting = await still();
      for (let moved = 0; moved < 2; ) {
        await desktop.keypress(["Down"]);
        const after = await eventually(() => desktop.screenshot(), (shot) => !shot.data.equals(resting), 5_000);
        if (after.data.equals(resting)) continue;
        moved++;
        resting = await still();
      }
      await desktop.keypress(["Enter"]);
      const opened = await eventually(() => desktop.activeWindow(), (w) => w?.app === "Mousepad", 30_000);
      expect(opened).toMatchObject({ app: "Mousepad", title: expect.stringContaining("Mousepad") });
      const active = (await x.property(x.root, "_NET_ACTIVE_WINDOW"))!.readUInt32LE(0);
      editorPid = (await x.property(active, "_NET_WM_PID"))!.readUInt32LE(0);
    } finally {
      x.close();
      await desktop.close();
      await display.close();
    }
    const alive = async () => {
      try {
        return process.kill(editorPid, 0);
      } catch {
        return false;
      }
    };
    expect(await eventually(alive, (running) => !running, 3_000)).toBe(false);
  });
});
