// The tool agent's actions go through the same checked hands as the planner's: a click is
// pointer-checked (a button that jumps away on hover is followed and hit), and a click without
// effect is repeated a few pixels off, then reported — on the timeline and to the model.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

/** The element chooser's answer: the ref the tree gives a button, as a model reading it would. */
const chooseButton = (name: string): Responder => (r) => ({ text: JSON.stringify({ ref: new RegExp(`- button "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))![1], method: "click" }) });
const chooserFor = (action: string) => (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes(`Instruction: ${action}`);

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

async function run(session: string, goal: string, start: string, on = app) {
  const { json } = await on.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: session, text: goal, start_url: pages.url(start) });
  const events = await openStream(on.url, session, 0);
  const end = await events.waitForEnd(json.task_id, 45_000);
  events.close();
  const stored = (await on.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
  return { end, stored, requests: model.requests.filter(agentOf(goal)) };
}

describe("the tool agent's checked actions", () => {
  it("follows a button that jumps away on hover and clicks it where it went", async () => {
    const goal = "Press the shifting button";
    // "Shifts once" is centred at (780, 625) until the pointer enters it, then at (380, 225).
    model.route(agentOf(goal), calls(["click", { describe: "the Shifts once button", coordinates: [780, 625] }]), calls(["close", { reasoning: "Pressed.", taskComplete: true }]));
    const { end, stored } = await run("s-checks-shift", goal, "jumpy.html");
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("shift-clicked");
    const click = stored.steps[0]!;
    expect(click).toMatchObject({ tool: { name: "click", label: 'click "the Shifts once button"' }, cursor_x: 380, cursor_y: 225 });
    expect(click.verification).toMatchObject({
      verified: true,
      model_calls: 0,
      attempts: [
        { method: "hit_test", on_target: false, cursor_x: 780, cursor_y: 625 },
        { method: "hit_test", on_target: true, cursor_x: 380, cursor_y: 225 },
      ],
    });
    expect(click.effect).toMatchObject({ changed: true });
  });

  it("clicks a dead button again a few pixels off, then tells the model nothing changed", async () => {
    const goal = "Press the dead button";
    model.route(agentOf(goal), calls(["click", { describe: "the Does nothing button", coordinates: [180, 125] }]), calls(["close", { reasoning: "It does nothing.", taskComplete: true }]));
    const { end, stored, requests } = await run("s-checks-dead", goal, "effects.html");
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("dead-clicks:4");
    expect(pages.records).not.toContain("dead-clicks:5");
    expect(stored.steps[0]!.effect).toMatchObject({ changed: false, retries: 3, note: "retried 3 times a few pixels off" });
    const answer = requests[1]!.body.messages.find((m) => m.role === "tool")!;
    expect(JSON.parse(answer.content as string)).toMatchObject({ ok: true, effect: "nothing changed on the page (retried 3 times a few pixels off)" });
  });

  it("fails a click it cannot place, and clicks nothing", async () => {
    const goal = "Press the running button";
    // "Runs away" is drawn anew further right each time the pointer enters it: the hit test never holds it.
    model.route(agentOf(goal), calls(["click", { describe: "the Runs away button", coordinates: [180, 425] }]), calls(["close", { reasoning: "It ran away.", taskComplete: false }]));
    const { stored, requests } = await run("s-checks-runner", goal, "jumpy.html");
    expect(pages.records).not.toContain("runner-clicked");
    expect(stored.steps[0]!.tool).toMatchObject({ ok: false, error: { code: "NOT_CLICKED" } });
    expect(stored.steps[0]!.verification).toMatchObject({ verified: false, model_calls: 0 });
    const answer = requests[1]!.body.messages.find((m) => m.role === "tool")!;
    expect(JSON.parse(answer.content as string)).toMatchObject({ ok: false, error: { code: "NOT_CLICKED" } });
  });

  it("clicks an element named by ref at its centre, checked by the hit test, and refuses one something covers", async () => {
    const goal = "Press Pay, then Free";
    model.route(agentOf(goal), calls(["act", { action: "click the Pay button" }]), calls(["act", { action: "click the Free button" }]), calls(["close", { reasoning: "Free pressed; Pay is covered.", taskComplete: true }]));
    model.route(chooserFor("click the Pay button"), chooseButton("Pay"));
    model.route(chooserFor("click the Free button"), chooseButton("Free"));
    const { end, stored, requests } = await run("s-checks-covered", goal, "covered.html");
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("free-clicked");
    expect(pages.records).not.toContain("pay-clicked");
    expect(pages.records).not.toContain("banner-clicked");
    const [pay, free] = stored.steps;
    expect(pay!.tool).toMatchObject({ ok: false, error: { code: "NOT_CLICKED", message: expect.stringContaining('<div> "We use cookies" covers it') } });
    expect(free!.verification).toMatchObject({ verified: true, attempts: [{ method: "hit_test", on_target: true, cursor_x: 180, cursor_y: 425 }] });
    const answer = requests[1]!.body.messages.find((m) => m.role === "tool")!;
    expect(JSON.parse(answer.content as string)).toMatchObject({ ok: false, error: { code: "NOT_CLICKED" } });
  });

  it("clicks without a check where nothing can check it (VERIFY_METHOD=model and a model that does not look)", async () => {
    const other = await startApp({ modelBaseUrl: model.baseUrl, config: { verification: { method: "model" } } });
    try {
      const goal = "Press Still without a look";
      model.route(agentOf(goal), calls(["click", { describe: "the Still button", coordinates: [180, 625] }]), calls(["close", { reasoning: "Pressed.", taskComplete: true }]));
      const { end, stored } = await run("s-checks-unchecked", goal, "jumpy.html", other);
      expect(end).toMatchObject({ type: "task.completed" });
      await pages.waitForRecord("still-clicked");
      expect(stored.steps[0]).toMatchObject({ verification: null, effect: { changed: true } });
    } finally {
      await other.close();
    }
  });
});
