// A person attaches a picture and asks for it to be put into a page's form in their own Chrome
// (seed 004), which cannot read the server's disk where the attachment is written: its bytes are
// handed to the page itself. The planner's `upload` at a point and into the file chooser a click
// opened, and the tool agent's by ref, each reach the form's server as the very bytes attached.
import type { BrowserContext } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../support/app.ts";
import { runDeciding as run } from "../support/decide.ts";
import { chromeConnectedTo } from "../support/extension-browser.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
let context: BrowserContext;
let photo: Buffer;

beforeAll(async () => {
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { timeoutMs: 60_000 } } });
  // The person's Chrome cannot read the server's data dir, where the attachments are written.
  ({ context } = await chromeConnectedTo(app, [app.dataDir]));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await app?.close();
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
const inExtension = (text: string, session: string, more: Record<string, unknown> = {}) =>
  run(app, session, { computer: "extension", text, start_url: pages.url("upload.html"), attachments: attached(), ...more });

describe("uploading an attached picture in the person's Chrome", () => {
  it("puts it into the file input at a point; the form's server receives the same bytes", async () => {
    const task = "Send my photo through the form in my browser";
    model.route(
      plannedFor(task),
      act("upload", { name: "photo.png", x: 250, y: 120 }, "Putting the photo into the form"),
      act("click", { x: 160, y: 320 }, "Sending the form"),
      act("done", { answer: "Sent." }, "Finished"),
    );
    const { end, stored } = await inExtension(task, "s-ext-upload-point");
    expect(end).toMatchObject({ type: "task.completed" });
    const received = pages.uploads.filter((u) => u.field === "photo");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ name: "photo.png", type: "image/png" });
    expect(received[0]!.data.equals(photo)).toBe(true);
    expect(stored.steps[0]!.effect).toMatchObject({ changed: true });
  });

  it("puts it into the file chooser that a click on the page's button opened", async () => {
    const task = "Give the site my picture from my browser";
    model.route(
      plannedFor(task),
      act("click", { x: 200, y: 220 }, "Opening the picture picker"),
      act("upload", { name: "photo.png" }, "Choosing the photo"),
      act("click", { x: 160, y: 320 }, "Sending the form"),
      act("done", { answer: "Sent." }, "Finished"),
    );
    const { end } = await inExtension(task, "s-ext-upload-chooser");
    expect(end).toMatchObject({ type: "task.completed" });
    const received = pages.uploads.filter((u) => u.field === "picture");
    expect(received).toHaveLength(1);
    expect(received[0]!.name).toBe("photo.png");
    expect(received[0]!.data.equals(photo)).toBe(true);
  });

  it("is put by the tool agent into the file input its ref names", async () => {
    const goal = "Post my photo with the form in my browser";
    const sent = pages.uploads.length;
    model.route(agentOf(goal), calls(["ariaTree", {}]), withRef("upload", { name: "photo.png" }, "Photo"), calls(["act", { action: "click the Send button" }]), calls(["close", { reasoning: "Sent.", taskComplete: true }]));
    model.route((r) => systemText(r).startsWith("You choose elements") && userText(r).includes("Send"), (r) => ({
      text: JSON.stringify({ ref: new RegExp(`button "Send"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))![1], method: "click" }),
    }));
    const { end, stored } = await inExtension(goal, "s-ext-upload-tool", { agent_mode: "dom" });
    expect(end).toMatchObject({ type: "task.completed" });
    expect(stored.steps.map((s) => [s.tool?.name, s.tool?.ok])).toEqual([
      ["ariaTree", true],
      ["upload", true],
      ["act", true],
      ["close", true],
    ]);
    const received = pages.uploads.slice(sent).filter((u) => u.field === "photo");
    expect(received).toHaveLength(1);
    expect(received[0]!.data.equals(photo)).toBe(true);
  });
});
