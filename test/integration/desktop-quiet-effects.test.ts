// On a virtual desktop, what a click set off that the screen does not show is still its effect: a
// file it saved into the desktop's downloads folder, a window it opened minimized. Such a click is
// made once, not repeated, and its step says what it did.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { desktopFolder } from "../support/terminal.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const QUIET = path.join(import.meta.dirname, "../fixtures/desktop/quiet.py");

const { model } = useWorld({ app: false });

describe("an effect a desktop's screen does not show", () => {
  it("a new file in the downloads folder and a window that opened minimized each end the click", async () => {
    const notes = path.join(await desktopFolder("easyagentcu-desktop-quiet-"), "notes.txt");
    const desktop = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { apps: [`python3 ${QUIET} ${notes}`] } } });
    try {
      const task = "save the report and open the log";
      let windowUp = () => {};
      const up = new Promise<void>((resolve) => (windowUp = resolve));
      model.route(
        (r) => planningText(r).includes(`Task: ${task}`),
        // The screen the click is compared with shows the window.
        { ...act("wait", { ms: 300 }, "Waiting for the window"), until: up },
        act("click", { x: 125, y: 100 }, "Saving the report"),
        act("click", { x: 375, y: 100 }, "Opening the log"),
        act("done", { answer: "Done." }, "Finished"),
      );
      const events = await openStream(desktop.url, "s-desktop-quiet", 0);
      const { json } = await desktop.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-quiet", text: task });
      await events.waitFor((e) => e.type === "screen.live" && e.window?.startsWith("Quiet effects") === true, 30_000);
      windowUp();
      await events.completes(json.task_id, 60_000);
      events.close();
      const { steps } = (await desktop.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(steps[1]!.effect).toMatchObject({ changed: true, retries: 0, seen: "download" });
      expect(steps[2]!.effect).toMatchObject({ changed: true, retries: 0, seen: "new_tab" });
      // A repeated click would have noted itself by now.
      await delay(1_000);
      expect(await readFile(notes, "utf8")).toBe("saved\nopened\n");
    } finally {
      await desktop.close();
    }
  });
});
