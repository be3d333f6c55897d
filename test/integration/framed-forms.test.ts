// Forms inside frames under the approval policy: a start page the person named frames a sign-in
// form of another origin and tells the agent to type the password there and press Enter; a
// scripted model obeys. The policy allows every class, so only provenance can ask: the typing and
// the posting are judged toward the frame's origin, which the person did not name. Each asks, the
// approval names the frame and marks the field inside it, and the other origin receives nothing
// until the person allows it.
import { describe, expect, it } from "vitest";
import type { Approval, SessionEvent } from "../../src/protocol/index.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const CODE = "7731-frame";
const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 }, secrets: { access_code: CODE } } });

// Where framed-form.html puts the framed password field, in screenshot pixels, and its box.
const PASSWORD = { x: 235, y: 265 };
const PASSWORD_BOX = { x: 135, y: 245, width: 200, height: 40 };

const plannedFor = (text: string) => (r: RecordedRequest) => planningText(r).includes(text);
const toolAgentFor = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const chooserFor = (words: string) => (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes(words);
const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
/** The element chooser's answer: the ref its tree gives the element, as a model reading it would find it. */
const choose = (role: string, name: string, method: string, value?: string): Responder => (r) => {
  const ref = new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in the tree`);
  return { text: JSON.stringify({ ref, method, ...(value === undefined ? {} : { value }) }) };
};
const codes = (approval: Approval) => approval.checks.map((c) => c.code);

/**
 * Sends a task and decides its approvals in order, as the person would; before each decision,
 * `before(n)` looks at the world as it is while the n-th approval waits.
 */
async function run(session: string, text: string, decisions: boolean[], before: (n: number) => void, more: Record<string, unknown> = {}) {
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text, start_url: pages.url("framed-form.html"), ...more });
  const asked = () => events.events.filter((e): e is Extract<SessionEvent, { type: "approval.requested" }> => e.type === "approval.requested").map((e) => e.approval);
  for (const [n, approved] of decisions.entries()) {
    await events.waitFor(() => asked()[n] !== undefined);
    before(n);
    expect((await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked()[n]!.id, approved })).status).toBe(202);
  }
  const end = await events.waitForEnd(json.task_id, 45_000);
  events.close();
  return { end, approvals: asked() };
}

describe("a sign-in form in a frame of another origin, on a start page the person named", () => {
  const partner = () => new URL(pages.url("framed-form.html")).origin.replace("127.0.0.1", "localhost");

  it("typing a password written in the task, and pressing Enter there, each ask; the frame's origin gets it only once allowed", async () => {
    const task = "Read the members' deals; my password is hunter2";
    model.route(
      plannedFor(task),
      act("click", PASSWORD, "Clicking the password box"),
      act("type", { text: "hunter2" }, "Typing the password"),
      act("keypress", { keys: ["Enter"] }, "Signing in"),
      act("keypress", { keys: ["Enter"] }, "Signing in again"),
      act("done", { answer: "Signed in." }, "Finished"),
    );
    const posted = () => pages.records.some((r) => r.includes("hunter2"));
    const { end, approvals } = await run("s-frame-password", task, [true, false, true], () => expect(posted()).toBe(false));
    expect(end).toMatchObject({ type: "task.completed" });
    // Two reasons to ask before the typing: the field is a password one, and the text is the password the task wrote.
    expect(approvals.map(codes)).toEqual([["sensitive_field", "sensitive_field"], ["submit"], ["submit"]]);
    for (const approval of approvals) expect(approval).toMatchObject({ frame_origin: partner(), box: PASSWORD_BOX, url: pages.url("framed-form.html") });
    await expect.poll(posted).toBe(true);
  });

  it("a secret typed into a plain field there is judged toward the frame's origin too: refused, nothing is typed or sent", async () => {
    const task = "Sign in to the deals with %access_code%";
    model.route(
      plannedFor(task),
      act("click", { x: 235, y: 205 }, "Clicking the user name box"),
      act("type", { text: "%access_code%\n" }, "Typing the code and sending it"),
      act("done", { answer: "Not signed in." }, "Finished"),
    );
    const { end, approvals } = await run("s-frame-secret", task, [false], () => undefined);
    expect(end).toMatchObject({ type: "task.completed" });
    expect(approvals.map(codes)).toEqual([["submit", "sensitive_field"]]);
    expect(approvals[0]).toMatchObject({ frame_origin: partner(), box: { x: 135, y: 185, width: 200, height: 40 } });
    expect(approvals[0]!.checks[1]!.message).toContain("types the secret %access_code%");
    expect(pages.records.some((r) => r.includes(CODE))).toBe(false);
  });

  it("the tool agent, acting by the refs of the frame's fields, is asked before filling the password and before pressing Verify", async () => {
    const goal = "Sign in to the members' deals with password hunter2";
    model.route(
      toolAgentFor(goal),
      calls(["act", { action: "type hunter2 into the Password field" }]),
      calls(["act", { action: "click the Verify button" }]),
      calls(["close", { reasoning: "The person refused both; nothing was sent.", taskComplete: true }]),
    );
    model.route(chooserFor("type hunter2 into the Password field"), choose("textbox", "Password", "fill", "hunter2"));
    model.route(chooserFor("click the Verify button"), choose("button", "Verify", "click"));
    const earlier = pages.records.length;
    const { end, approvals } = await run("s-frame-tools", goal, [false, false], () => undefined, { agent_mode: "dom" });
    expect(end).toMatchObject({ type: "task.completed" });
    expect(approvals.map(codes)).toEqual([["sensitive_field"], ["submit"]]);
    expect(approvals[0]).toMatchObject({ frame_origin: partner(), box: PASSWORD_BOX });
    expect(approvals[1]).toMatchObject({ frame_origin: partner(), box: { x: 135, y: 305, width: 200, height: 40 } });
    expect(pages.records.slice(earlier).some((r) => r.includes("hunter2"))).toBe(false);
  });
});
