// A file a program on the virtual desktop saves into the desktop's downloads folder is the
// person's, as a browser's download is: kept with the task byte for byte, typed from its bytes,
// announced, listed with the task and served back as a download.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEventOf, TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { desktopFolder } from "../support/terminal.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// Its "Save" label (125, 100) writes report-1.txt, "report\n", into the desktop's downloads folder.
const QUIET = path.join(import.meta.dirname, "../fixtures/desktop/quiet.py");

const { model } = useWorld({ app: false });

describe("a file saved into a virtual desktop's downloads folder", () => {
  it("is kept with the task, announced, listed and served back byte for byte", async () => {
    const notes = path.join(await desktopFolder("easyagentcu-desktop-downloads-"), "notes.txt");
    const desktop = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { apps: [`python3 ${QUIET} ${notes}`] } } });
    try {
      const task = "save the report";
      let windowUp = () => {};
      const up = new Promise<void>((resolve) => (windowUp = resolve));
      model.route(
        (r) => planningText(r).includes(`Task: ${task}`),
        { ...act("wait", { ms: 300 }, "Waiting for the window"), until: up },
        act("click", { x: 125, y: 100 }, "Saving the report"),
        act("done", { answer: "Saved." }, "Finished"),
      );
      const events = await openStream(desktop.url, "s-desktop-downloads", 0);
      const { json } = await desktop.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-downloads", text: task });
      await events.waitFor((e) => e.type === "screen.live" && e.window?.startsWith("Quiet effects") === true, 30_000);
      windowUp();
      await events.completes(json.task_id, 60_000);
      events.close();
      const { files } = (await desktop.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(files).toEqual([{ id: expect.any(String), name: "report-1.txt", mime_type: "text/plain", size: 7, step: 2 }]);
      const announced = events.events.flatMap((e) => (e.type === "task.file" ? [e as AgentEventOf<"task.file">] : []));
      expect(announced.map((e) => e.file)).toEqual(files);
      const response = await fetch(`${desktop.url}/api/files/${files[0]!.id}`);
      expect(await response.text()).toBe("report\n");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(await readFile(notes, "utf8")).toBe("saved\n");
      const asked = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
      expect(planningText(asked[2]!)).toContain("Received the file report-1.txt (7 B, text/plain)");
    } finally {
      await desktop.close();
    }
  });
});
