// The tool agent's actions go through the same checked hands as the planner's: a click is
// pointer-checked (a button that jumps away on hover is followed and hit), and a click without
// effect is repeated a few pixels off, then reported — on the timeline and to the model.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

async function run(session: string, goal: string, start: string) {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: session, text: goal, start_url: pages.url(start) });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id, 45_000);
  events.close();
  const stored = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
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
});
