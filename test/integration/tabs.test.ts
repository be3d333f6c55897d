// The tool agent's tabs: a link that opens a new tab is followed, the agent works there, lists its
// tabs, switches back and works in the first one, closes the second; the steps and the live view
// show the tab it acts on. A new tab at an address is judged as opening it would be: a blocked
// address, or one the approval policy refuses, never opens.
import { describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { ALLOW_EVERYTHING } from "../support/app.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { approvals: { ...ALLOW_EVERYTHING, leave_site: "deny" }, network: { blockedDomains: ["blocked.example"] } } });

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

/** What the model read back from each call, in order. */
const answers = (requests: RecordedRequest[]) => requests.at(-1)!.body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(String(m.content).split("\n")[0]!) as { ok: boolean; data?: unknown; error?: unknown });

describe("the agent's tabs", () => {
  it("works in a tab a link opened, switches back to the first and works there, then closes the second; a blocked address never opens", async () => {
    const goal = "Press at work, then at home";
    const home = pages.url("tabs-home.html");
    const work = pages.url("tabs-work.html");
    model.route(
      agentOf(goal),
      calls(["click", { describe: "the Open the work page link", coordinates: [150, 108] }]),
      calls(["click", { describe: "the Press at work button", coordinates: [600, 430] }]),
      calls(["tabs", {}]),
      calls(["switchTab", { id: "tab_1" }]),
      calls(["click", { describe: "the Press at home button", coordinates: [200, 330] }]),
      calls(["newTab", { url: "http://blocked.example/" }]),
      calls(["closeTab", { id: "tab_2" }]),
      calls(["closeTab", { id: "tab_1" }]),
      calls(["close", { reasoning: "Pressed both.", taskComplete: true }]),
    );
    const session = "s-tabs-work";
    const events = await openStream(app.url, session, 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: session, text: goal, start_url: home });
    const end = await events.waitForEnd(json.task_id, 60_000);
    events.close();
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("work-pressed");
    await pages.waitForRecord("home-pressed");
    expect(pages.records.indexOf("work-pressed")).toBeLessThan(pages.records.indexOf("home-pressed"));

    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => [s.tool?.name, s.tool?.ok, s.url])).toEqual([
      ["click", true, work],
      ["click", true, work],
      ["tabs", true, work],
      ["switchTab", true, home],
      ["click", true, home],
      ["newTab", false, home],
      ["closeTab", true, home],
      ["closeTab", false, home],
      ["close", true, home],
    ]);
    expect(steps[0]!.effect).toMatchObject({ changed: true, seen: "new_tab" });
    expect(steps[3]).toMatchObject({ tool: { label: 'switchTab "tab_1"' }, effect: { changed: true } });
    expect(steps[5]!.tool!.error).toMatchObject({ code: "DENIED", message: "The agent never opens http://blocked.example: it is on the block-list (BLOCKED_DOMAINS)." });

    const read = answers(model.requests.filter(agentOf(goal)));
    expect(read[2]).toMatchObject({
      ok: true,
      data: {
        tabs: [
          { id: "tab_1", title: "Fixture: tabs, the first", url: home, active: false },
          { id: "tab_2", title: "Fixture: tabs, the work page", url: work, active: true },
        ],
      },
    });
    expect(read[3]).toMatchObject({ ok: true, data: { tab: { id: "tab_1", url: home, active: true } } });
    // Refused before it opened: no third tab was ever made, and the second is closed.
    expect(read[6]).toMatchObject({ ok: true, data: { tabs: [{ id: "tab_1", url: home, active: true }] } });
    expect(read[7]).toMatchObject({ ok: false, error: { code: "ACTION_FAILED", message: expect.stringContaining("tab_1 is the only tab") } });

    // The live view went to the work page with the link's tab, and back home with the switch.
    const live = events.events.filter((e): e is Extract<SessionEvent, { type: "screen.live" }> => e.type === "screen.live" && e.task_id === json.task_id).map((e) => e.url);
    const shown = live.filter((url, i) => url !== live[i - 1]);
    expect(shown).toEqual([home, work, home]);
  });

  it("opens a new tab at an address the policy allows and works there, and refuses one the policy denies before it opens", async () => {
    const goal = "Open the work page in a new tab and press there";
    const work = pages.url("tabs-work.html");
    const elsewhere = work.replace("127.0.0.1", "localhost");
    model.route(
      agentOf(goal),
      calls(["newTab", { url: elsewhere }]),
      calls(["newTab", { url: work }]),
      calls(["click", { describe: "the Press at work button", coordinates: [600, 430] }]),
      calls(["close", { reasoning: "Pressed.", taskComplete: true }]),
    );
    const before = pages.records.filter((r) => r === "work-pressed").length;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-tabs-new", text: goal, start_url: pages.url("tabs-home.html") });
    const events = await openStream(app.url, "s-tabs-new", 0);
    expect(await events.waitForEnd(json.task_id, 60_000)).toMatchObject({ type: "task.completed" });
    events.close();
    await expect.poll(() => pages.records.filter((r) => r === "work-pressed").length).toBe(before + 1);

    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => [s.tool?.name, s.tool?.ok, s.url])).toEqual([
      ["newTab", false, pages.url("tabs-home.html")],
      ["newTab", true, work],
      ["click", true, work],
      ["close", true, work],
    ]);
    expect(steps[0]!.tool!.error).toMatchObject({ code: "DENIED", message: expect.stringContaining("The approval policy does not allow this") });
    expect(steps[1]).toMatchObject({ tool: { label: `newTab ${JSON.stringify(work)}` }, effect: { changed: true } });
    const read = answers(model.requests.filter(agentOf(goal)));
    // The refused one made no tab: the one opened next is the second.
    expect(read[1]).toMatchObject({ ok: true, data: { tab: { id: "tab_2", url: work, active: true } } });
  });
});
