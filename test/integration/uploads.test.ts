// A person attaches a picture to their message and asks for it to be put into a page's form: the
// planner's `upload` puts it into the file input at a point, or into the file chooser the page
// opened, and the form's server receives the very bytes that were attached. A name the message
// did not attach is refused, and the model is told which it has; an upload to an origin the
// person did not name waits for them.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../support/app.ts";
import { runDeciding as run } from "../support/decide.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 } } });

let photo: Buffer;
beforeAll(async () => {
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .composite([{ input: { create: { width: 20, height: 20, channels: 3, background: { r: 10, g: 160, b: 220 } } }, left: 30, top: 10 }])
    .png()
    .toBuffer();
});

const attached = () => [{ name: "photo.png", mime_type: "image/png", data_url: `data:image/png;base64,${photo.toString("base64")}` }];
const plannedFor = (text: string) => (r: RecordedRequest) => planningText(r).includes(text);
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
/** A call of `name` with the ref the tree the model read last gives the element labelled `label`. */
const withRef = (name: string, args: Record<string, unknown>, label: string): Responder => (r) => {
  const read = r.body.messages.map((m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join("\n"))).join("\n");
  const ref = [...read.matchAll(new RegExp(`"${label}"[^\\n]*\\[ref=([a-z0-9]+)\\]`, "g"))].at(-1)?.[1];
  if (!ref) throw new Error(`no "${label}" in the tree`);
  return calls([name, { ...args, ref }]);
};

describe("uploading an attached picture into a page's form", () => {
  it("puts it into the file input at a point; the form's server receives the same bytes", async () => {
    const task = "Send my photo through the form";
    model.route(
      plannedFor(task),
      act("upload", { name: "photo.png", x: 250, y: 120 }, "Putting the photo into the form"),
      act("click", { x: 160, y: 320 }, "Sending the form"),
      act("done", { answer: "Sent." }, "Finished"),
    );
    const { end, stored } = await run(app, "s-upload-point", { text: task, start_url: pages.url("upload.html"), attachments: attached() });
    expect(end).toMatchObject({ type: "task.completed" });
    const received = pages.uploads.filter((u) => u.field === "photo");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ name: "photo.png", type: "image/png" });
    expect(received[0]!.data.equals(photo)).toBe(true);
    expect(stored.steps[0]!.action).toMatchObject({ type: "upload", args: { name: "photo.png", x: 250, y: 120 } });
    expect(stored.steps[0]!.effect).toMatchObject({ changed: true });
    // The file written for the upload goes with the task's run.
    expect(existsSync(path.join(app.dataDir, "uploads", stored.task.id))).toBe(false);
  });

  it("puts it into the file chooser that a click on the page's button opened", async () => {
    const task = "Give the site my picture";
    model.route(
      plannedFor(task),
      act("click", { x: 200, y: 220 }, "Opening the picture picker"),
      act("upload", { name: "photo.png" }, "Choosing the photo"),
      act("click", { x: 160, y: 320 }, "Sending the form"),
      act("done", { answer: "Sent." }, "Finished"),
    );
    const { end, stored } = await run(app, "s-upload-chooser", { text: task, start_url: pages.url("upload.html"), attachments: attached() });
    expect(end).toMatchObject({ type: "task.completed" });
    // The click opened a file chooser: no screen shows it, the effect check heard it.
    expect(stored.steps[0]!.effect).toMatchObject({ changed: true, seen: "dialog" });
    const received = pages.uploads.filter((u) => u.field === "picture");
    expect(received).toHaveLength(1);
    expect(received[0]!.name).toBe("photo.png");
    expect(received[0]!.data.equals(photo)).toBe(true);
  });

  it("refuses a name the message did not attach, and tells the model which it did", async () => {
    const task = "Upload my CV to the form";
    const before = pages.uploads.length;
    model.route(
      plannedFor(task),
      act("upload", { name: "cv.pdf", x: 250, y: 120 }, "Putting the CV into the form"),
      act("done", { answer: "There is no CV attached." }, "Finished"),
    );
    const { end, stored } = await run(app, "s-upload-unknown", { text: task, start_url: pages.url("upload.html"), attachments: attached() });
    expect(end).toMatchObject({ type: "task.completed" });
    const refusal = 'No attachment is called "cv.pdf"; the message attached "photo.png". Upload one of those by its name.';
    expect(stored.steps[0]!.text).toContain(refusal);
    expect(planningText(model.requests.filter(plannedFor(task))[1]!)).toContain(refusal);
    expect(pages.uploads.length).toBe(before);
  });
});

describe("the tool agent's upload", () => {
  it("puts the attachment into the file input its ref names, a wrong name comes back as a failure it can read, and Run again puts it in again without the model", async () => {
    const goal = "Post my photo with the form";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      withRef("upload", { name: "holiday.png" }, "Photo"),
      withRef("upload", { name: "photo.png" }, "Photo"),
      calls(["act", { action: "click the Send button" }]),
      calls(["close", { reasoning: "Sent.", taskComplete: true }]),
    );
    model.route((r) => systemText(r).startsWith("You choose elements") && userText(r).includes("Send"), (r) => ({
      text: JSON.stringify({ ref: new RegExp(`button "Send"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))![1], method: "click" }),
    }));
    const { end, stored } = await run(app, "s-upload-tool", { text: goal, start_url: pages.url("upload.html"), agent_mode: "dom", attachments: attached() });
    expect(end).toMatchObject({ type: "task.completed" });
    expect(stored.steps.map((s) => [s.tool?.name, s.tool?.ok])).toEqual([
      ["ariaTree", true],
      ["upload", false],
      ["upload", true],
      ["act", true],
      ["close", true],
    ]);
    expect(stored.steps[1]!.tool!.error).toEqual({ code: "ACTION_FAILED", message: 'No attachment is called "holiday.png"; the message attached "photo.png". Upload one of those by its name.' });
    const received = pages.uploads.filter((u) => u.field === "photo").at(-1)!;
    expect(received.name).toBe("photo.png");
    expect(received.data.equals(photo)).toBe(true);

    // Run again: without the model, the same attachment goes into the recorded input, and is sent again.
    const before = model.requests.length;
    const sent = pages.uploads.length;
    const again = await app.api<{ task_id: string }>("POST", "/api/chat/replay", { task_id: stored.task.id });
    expect(again.status).toBe(202);
    const events = await openStream(app.url, "s-upload-tool", 0);
    expect(await events.waitForEnd(again.json.task_id, 45_000)).toMatchObject({ type: "task.completed" });
    events.close();
    const replayed = pages.uploads.slice(sent).filter((u) => u.field === "photo");
    expect(replayed).toHaveLength(1);
    expect(replayed[0]!.data.equals(photo)).toBe(true);
    expect(model.requests.slice(before).filter(agentOf(goal))).toEqual([]);
  });
});

describe("uploads under the approval policy", () => {
  it("asks before giving the file to an origin the person did not name, and nothing is sent when they refuse", async () => {
    const task = "Find a place to post my photo";
    const before = pages.uploads.length;
    model.route(
      plannedFor(task),
      act("navigate", { url: pages.url("upload.html") }, "Opening a photo site"),
      act("upload", { name: "photo.png", x: 250, y: 120 }, "Putting the photo into the form"),
      act("done", { answer: "Not posted." }, "Finished"),
    );
    const { end, stored, approvals } = await run(app, "s-upload-ask", { text: task, attachments: attached() }, [false]);
    expect(end).toMatchObject({ type: "task.completed" });
    const origin = new URL(pages.url("upload.html")).origin;
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      checks: [{ code: "upload", message: `Putting the photo into the form: it puts the file "photo.png" into the file input on ${origin}, which receives it.` }],
      action: { type: "upload", args: { name: "photo.png" } },
      at: { x: 250, y: 120 },
    });
    expect(stored.steps[1]!.text).toContain("The person did not allow this");
    expect(pages.uploads.length).toBe(before);
  });
});

describe("upload files a killed server left", () => {
  it("are removed when the server starts again on its data dir", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-test-"));
    const left = path.join(dataDir, "uploads", "task_killed", "1");
    await mkdir(left, { recursive: true });
    await writeFile(path.join(left, "photo.png"), "the bytes of an upload under way when the server died");
    const restarted = await startApp({ modelBaseUrl: model.baseUrl, dataDir });
    try {
      expect(existsSync(path.join(dataDir, "uploads"))).toBe(false);
    } finally {
      await restarted.close();
    }
  });
});
