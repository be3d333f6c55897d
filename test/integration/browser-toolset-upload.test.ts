// Claude's browser toolset putting the person's attachment into a page's form: file_upload names
// the attachment in `paths` and the file input by the ref read_page gave it; the form's server
// receives the very bytes attached. A name the message did not attach, a Files API document and
// several files at once each come back as an error Claude can read, and nothing is sent for them.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { runDeciding } from "../support/decide.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

// A Claude 5 model, which takes the 2026-08-01 toolsets.
const { model, pages, app } = useWorld({ config: { model: { provider: "anthropic", name: "claude-sonnet-5", apiKey: "sk-ant-test", timeoutMs: 60_000 } } });

type Block = { type: string; text?: string; tool_use_id?: string; is_error?: boolean; content?: Block[] };
const lastResults = (r: RecordedRequest) => (r.body.messages as unknown as { content: Block[] }[]).at(-1)!.content.filter((b) => b.type === "tool_result");
const textOf = (result: Block) => (result.content ?? []).filter((b) => b.type === "text").map((b) => b.text).join("\n");
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages?.[0]).includes(`Goal: ${goal}`);
const members = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args, toolset: "browser" })) } });

/** The ref_N the latest read in the request gives an element. */
function refIn(request: RecordedRequest, line: string): string {
  const reads = (request.body.messages as unknown as { content: Block[] }[]).flatMap((m) => (Array.isArray(m.content) ? m.content : []).filter((b) => b.type === "tool_result").map(textOf));
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const ref = reads.map((text) => new RegExp(`${escaped}[^\\n]*\\[(ref_\\d+)\\]`).exec(text)?.[1]).filter(Boolean).at(-1);
  if (!ref) throw new Error(`no ${line} in any read`);
  return ref;
}

let photo: Buffer;
beforeAll(async () => {
  photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 240, g: 180, b: 20 } } }).png().toBuffer();
});

describe("Claude's browser toolset uploading an attachment", () => {
  it("puts it into the file input a ref names; the form's server receives the same bytes, and wrong requests are refused", async () => {
    const goal = "Send my photo with the form through Claude's browser";
    const photoRef = (r: RecordedRequest) => ({ type: "ref", ref: refIn(r, 'button "Photo"') });
    model.route(
      agentOf(goal),
      members(["read_page", {}]),
      (r) => members(["file_upload", { target: photoRef(r), paths: ["holiday.png"] }]),
      (r) => members(["file_upload", { target: photoRef(r), document_ids: ["file_011"] }]),
      (r) => members(["file_upload", { target: photoRef(r), paths: ["photo.png", "photo.png"] }]),
      (r) => members(["file_upload", { target: photoRef(r), paths: ["photo.png"] }], ["left_click", { target: { type: "ref", ref: refIn(r, 'button "Send"') } }]),
      { chat: { text: "Sent." } },
    );
    const sent = pages.uploads.length;
    const { end, stored } = await runDeciding(app, "s-toolset-upload", {
      agent_mode: "dom",
      text: goal,
      start_url: pages.url("upload.html"),
      attachments: [{ name: "photo.png", mime_type: "image/png", data_url: `data:image/png;base64,${photo.toString("base64")}` }],
    });
    expect(end).toMatchObject({ type: "task.completed" });

    const received = pages.uploads.slice(sent);
    expect(received.map((u) => u.field)).toEqual(["photo"]);
    expect(received[0]).toMatchObject({ name: "photo.png", type: "image/png" });
    expect(received[0]!.data.equals(photo)).toBe(true);
    expect(stored.steps[4]!.tool).toMatchObject({ name: "file_upload", ok: true, input: { paths: ["photo.png"] }, targets: [{ target: { locator: expect.stringContaining("Photo") } }] });
    expect(stored.steps[4]!.action).toMatchObject({ type: "upload", args: { name: "photo.png" } });

    const asked = model.requests.filter(agentOf(goal));
    const answered = (n: number) => lastResults(asked[n]!).map((r) => [textOf(r), r.is_error ?? false]);
    expect([answered(2), answered(3), answered(4)]).toEqual([
      [['No attachment is called "holiday.png"; the message attached "photo.png". Upload one of those by its name.', true]],
      [["Files API documents cannot be uploaded in this browser: put the name of a file the person attached to their message in `paths`.", true]],
      [['Upload one file per call: call file_upload with ["photo.png"], then again for each other file.', true]],
    ]);
    expect(answered(5)).toEqual([
      [expect.stringMatching(/^Put photo\.png into ref_\d+\./), false],
      [expect.stringMatching(/^Clicked ref_\d+\./), false],
    ]);
  });
});
