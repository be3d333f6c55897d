// An attachment uploaded on the desktop: a program opens Tk's file dialog, the planner's upload
// types the path of the file — copied where the desktop's fenced programs can read it, since the
// data dir is not theirs — and the program receives the very bytes that were attached. With no
// page to name an origin, the person is asked first which file goes to which window.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Approval, SessionEvent } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { desktopFolder } from "../support/terminal.ts";
import { useWorld } from "../support/world.ts";

const PICKER = path.join(import.meta.dirname, "../fixtures/desktop/pick-file.py");

async function fileBytes(file: string, capMs = 30_000): Promise<Buffer | null> {
  const deadline = performance.now() + capMs;
  for (;;) {
    const data = await readFile(file).catch(() => null);
    if (data || performance.now() >= deadline) return data;
    await delay(100);
  }
}

const out = path.join(await desktopFolder("easyagentcu-desktop-upload-"), "received.png");
const { model, app } = useWorld({ config: { computer: "desktop", desktop: { apps: [`python3 ${PICKER} ${out}`] }, model: { timeoutMs: 60_000 } } });

describe("an upload on the desktop", () => {
  it("types the attachment's path into a real Tk file dialog, which opens the same bytes", async () => {
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 60 } } }).png().toBuffer();
    const task = "send my photo with the desktop program";
    let dialogUp = () => {};
    const up = new Promise<void>((resolve) => (dialogUp = resolve));
    const received = fileBytes(out, 60_000);
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      { ...act("wait", { ms: 300 }, "Waiting for the file dialog"), until: up },
      act("upload", { name: "photo.png" }, "Choosing the photo in the dialog"),
      { ...act("done", { answer: "Sent." }, "Finished"), until: received },
    );
    const events = await openStream(app.url, "s-desktop-upload", 0);
    const attachments = [{ name: "photo.png", mime_type: "image/png", data_url: `data:image/png;base64,${photo.toString("base64")}` }];
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-upload", text: task, attachments });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.startsWith("Choose a file to send") === true, 30_000);
    dialogUp();
    await events.waitFor((e) => e.type === "approval.requested", 30_000);
    const { approval } = events.events.find((e) => e.type === "approval.requested") as Extract<SessionEvent, { type: "approval.requested" }> & { approval: Approval };
    expect(approval.checks).toEqual([{ id: "risk_1", code: "upload", message: 'Choosing the photo in the dialog: it gives the file "photo.png" to the window "Choose a file to send".' }]);
    expect((await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: approval.id, approved: true })).status).toBe(202);
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Sent." });
    events.close();
    const bytes = await received;
    expect(bytes?.equals(photo)).toBe(true);
  });
});
