// Forms inside frames in the person's own Chrome (seed 004): the extension's computer classifies
// through the same CDP as our own browser, so a sign-in form framed from another origin (an
// out-of-process frame there too) is judged toward that origin. The policy allows every class:
// typing a password into the frame and pressing Enter there each ask, naming the frame, and the
// frame's origin receives nothing the person refused.
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approval, SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { chromeConnectedTo } from "../support/extension-browser.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
let context: BrowserContext;

beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl });
  ({ context } = await chromeConnectedTo(app));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await app?.close();
});

describe("a sign-in form in a frame of another origin, in the person's Chrome", () => {
  it("asks before typing the password there and before pressing Enter there, naming the frame; refused, nothing is sent", async () => {
    const task = "Read the members' deals in my browser; my password is hunter2";
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      // A frame of another site takes clicks once it is drawn.
      act("wait", { ms: 1000 }, "Letting the page settle"),
      act("click", { x: 235, y: 265 }, "Clicking the password box"),
      act("type", { text: "hunter2" }, "Typing the password"),
      act("keypress", { keys: ["Enter"] }, "Signing in"),
      act("done", { answer: "Not signed in." }, "Finished"),
    );
    const events = await openStream(app.url, "s-ext-frame", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", computer: "extension", session_id: "s-ext-frame", text: task, start_url: pages.url("framed-form.html") });
    const asked = () => events.events.filter((e): e is Extract<SessionEvent, { type: "approval.requested" }> => e.type === "approval.requested").map((e) => e.approval);
    for (const n of [0, 1]) {
      await events.waitFor(() => asked()[n] !== undefined, 30_000);
      expect((await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked()[n]!.id, approved: false })).status).toBe(202);
    }
    expect(await events.completes(json.task_id, 30_000)).toMatchObject({ answer: "Not signed in." });
    events.close();
    const partner = new URL(pages.url("framed-form.html")).origin.replace("127.0.0.1", "localhost");
    // Two reasons to ask before the typing: the field is a password one, and the text is the password the task wrote.
    expect(asked().map((a: Approval) => a.checks.map((c) => c.code))).toEqual([["sensitive_field", "sensitive_field"], ["submit"]]);
    for (const approval of asked()) expect(approval).toMatchObject({ frame_origin: partner, box: { x: 135, y: 245, width: 200, height: 40 } });
    expect(pages.records.some((r) => r.includes("hunter2"))).toBe(false);
  });
});
