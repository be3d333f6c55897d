// The tool agent on a desktop (seed 003): the chat model gets the desktop tools — computer_use,
// screen_info, mouse_action, keyboard_action, screenshot — and drives a real terminal on a real
// X server with them. computer_use is high risk, so the person is asked first; a point off the
// screen is refused with the screen's bounds; every call is a recorded step.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { ALLOW_EVERYTHING, startApp } from "../support/app.ts";
import { desktopFolder, fileText, TERMINAL } from "../support/terminal.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// The policy as a person would have it for seed 003's risk levels; the page classes stay out of the way.
const { model, app } = useWorld({ config: { computer: "desktop", desktop: { apps: [TERMINAL] }, approvals: { ...ALLOW_EVERYTHING, high_risk: "ask" } } });

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a desktop automation agent") && JSON.stringify(r.body.messages).includes(`Goal: ${goal}`);
/** What the model was answered for its calls, in order. */
const answers = (requests: RecordedRequest[]) =>
  requests.at(-1)!.body.messages.flatMap((m) => (m.role === "tool" ? [JSON.parse(typeof m.content === "string" ? m.content : JSON.stringify(m.content)) as Record<string, unknown>] : []));

describe("the desktop tools (seed 003)", () => {
  it("asks before computer_use, then types into a real terminal with mouse_action and keyboard_action", async () => {
    const file = path.join(await desktopFolder("easyagentcu-desktop-tools-"), "out.txt");
    const goal = "write a greeting to a file from the terminal";
    const written = fileText(file);
    let terminalUp = () => {};
    const up = new Promise<void>((resolve) => (terminalUp = resolve));
    model.route(
      agentOf(goal),
      { ...calls(["computer_use", { task: goal }]), until: up },
      calls(["screen_info", {}]),
      calls(["mouse_action", { action: "click", x: 5000, y: 100 }]),
      calls(["mouse_action", { action: "click", x: 200, y: 100 }]),
      calls(["keyboard_action", { action: "type", text: `echo 'Hello, World! @#$%^&*()' > ${file}` }]),
      calls(["keyboard_action", { action: "press", key: "enter" }]),
      calls(["wait", { timeMs: 300 }]),
      // The desktop goes away with the task: it closes once the shell, which may start late on a busy machine, has run the command.
      { ...calls(["close", { reasoning: "Written.", taskComplete: true }]), until: written },
    );
    const events = await openStream(app.url, "s-desktop-tools", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-desktop-tools", text: goal });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
    terminalUp();
    const asked = (await events.waitFor((e) => e.type === "approval.requested")) as Extract<SessionEvent, { type: "approval.requested" }>;
    expect(asked.approval.checks.map((c) => c.code)).toEqual(["high_risk"]);
    expect(asked.approval.intent).toBe(`computer_use "${goal}"`);
    expect((await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: true })).status).toBe(202);
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Written." });
    events.close();
    expect((await written).trim()).toBe("Hello, World! @#$%^&*()");

    const requests = model.requests.filter(agentOf(goal));
    const prompt = systemText(requests[0]!);
    for (const tool of ["computer_use", "screen_info", "mouse_action", "keyboard_action", "screenshot"]) expect(prompt).toContain(`- ${tool}:`);
    for (const browserOnly of ["ariaTree", "goto", "act"]) expect(prompt).not.toContain(`- ${browserOnly}:`);

    const [started, info, offScreen, clicked] = answers(requests);
    expect(started).toMatchObject({ ok: true, data: { task: goal, activeWindow: { app: "XTerm" } } });
    expect(info).toMatchObject({ ok: true, data: { screen: { width: 1280, height: 800 }, activeWindow: { app: "XTerm" } } });
    expect(offScreen).toMatchObject({ ok: false, error: { code: "INVALID_TARGET" } });
    expect((offScreen!.error as { message: string }).message).toMatch(/\(5000, 100\) is outside the \d+×\d+ screenshot/);
    expect(clicked).toMatchObject({ ok: true });

    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => s.tool?.name)).toEqual(["computer_use", "screen_info", "mouse_action", "mouse_action", "keyboard_action", "keyboard_action", "wait", "close"]);
    expect(steps.map((s) => s.tool?.label)).toContain("click at (200, 100)");
    expect(steps[4]!.effect).toMatchObject({ changed: true });
  });

  it("goes on without the call when computer_use is denied", async () => {
    const goal = "do something the person will not allow";
    model.route(agentOf(goal), calls(["computer_use", { task: goal }]), calls(["close", { reasoning: "Not allowed.", taskComplete: false }]));
    const events = await openStream(app.url, "s-desktop-deny", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-desktop-deny", text: goal });
    const asked = (await events.waitFor((e) => e.type === "approval.requested", 30_000)) as Extract<SessionEvent, { type: "approval.requested" }>;
    await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: false });
    expect(await events.waitForEnd(json.task_id, 30_000)).toMatchObject({ type: "task.failed" });
    events.close();
    const [denied] = answers(model.requests.filter(agentOf(goal)));
    expect(denied).toMatchObject({ ok: false, error: { code: "DENIED" } });
  });

  it("asks before keyboard_action alone when the policy says keyboard_input: ask, and not before mouse_action", async () => {
    const keyboardAsks = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { apps: [TERMINAL] }, approvals: { ...ALLOW_EVERYTHING, keyboard_input: "ask" } } });
    try {
      const goal = "type while the person watches the keyboard";
      model.route(
        agentOf(goal),
        calls(["mouse_action", { action: "move", x: 300, y: 300 }]),
        calls(["keyboard_action", { action: "type", text: "rm -rf nothing" }]),
        calls(["close", { reasoning: "Not allowed to type.", taskComplete: false }]),
      );
      const events = await openStream(keyboardAsks.url, "s-desktop-keys", 0);
      const { json } = await keyboardAsks.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-desktop-keys", text: goal });
      const asked = (await events.waitFor((e) => e.type === "approval.requested", 60_000)) as Extract<SessionEvent, { type: "approval.requested" }>;
      expect(asked.approval.checks.map((c) => [c.code, c.message])).toEqual([["keyboard_input", 'type "rm -rf nothing": it types or presses keys on the desktop.']]);
      await keyboardAsks.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: false });
      await events.waitForEnd(json.task_id, 30_000);
      events.close();
      expect(events.events.filter((e) => e.type === "approval.requested")).toHaveLength(1);
      const [moved, typed] = answers(model.requests.filter(agentOf(goal)));
      expect(moved).toMatchObject({ ok: true });
      expect(typed).toMatchObject({ ok: false, error: { code: "DENIED" } });
    } finally {
      await keyboardAsks.close();
    }
  });
});
