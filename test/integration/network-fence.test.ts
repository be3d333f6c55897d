// The agent's own browser is fenced off (issue 12): it never reaches EasyAgentCU's own server, a
// link-local or cloud-metadata address, a blocked domain, or a local service the allow-list does
// not name — typed, or through a redirect from an allowed page. The fixture pages, which the allow-list names, open.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent, TaskReply, TasksReply } from "../../src/protocol/index.ts";
import { ALLOW_EVERYTHING, startApp } from "../support/app.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// Tests elsewhere allow every class of action; here the first visit to a local origin asks.
const { model, pages, app } = useWorld({ config: { approvals: { ...ALLOW_EVERYTHING, local_network: "ask" }, network: { blockedDomains: ["blocked.example"] } } });

/** A local service nobody allowed, which counts the requests it gets. */
let service: Server;
let serviceUrl = "";
const hits: string[] = [];
beforeAll(async () => {
  service = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("<h1>private service</h1>");
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

/**
 * Sends the tool agent to `url`, answering its approval requests with `answers` in order, and
 * returns the ARIA tree of the page it ended on, as it read it, and what it was asked.
 */
async function visit(session: string, url: string, answers: boolean[] = []): Promise<string> {
  const goal = `visit ${session}`;
  model.route(agentOf(goal), calls(["goto", { url }]), calls(["ariaTree", {}]), calls(["close", { reasoning: "seen", taskComplete: true }]));
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: session, text: goal });
  for (const [n, approved] of answers.entries()) {
    const asked = await events.waitFor((e) => e.type === "approval.requested" && events.events.filter((x) => x.type === "approval.requested").length > n);
    const approval = (asked as Extract<SessionEvent, { type: "approval.requested" }>).approval;
    expect(approval.checks.map((c) => c.code)).toEqual(["local_network"]);
    await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: approval.id, approved });
  }
  await events.completes(json.task_id);
  expect(events.events.filter((e) => e.type === "approval.requested")).toHaveLength(answers.length);
  events.close();
  const stored = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
  return JSON.stringify(stored.steps[1]!.tool!.output);
}

describe("the network fence", () => {
  it("opens the fixture pages the allow-list names", async () => {
    expect(await visit("s-fence-allowed", pages.url("form.html"))).toContain("Press me");
  });

  it("never lets the agent's browser reach EasyAgentCU's own server", async () => {
    // Asked to open it, the hands refuse; led there by a redirect, the fence blocks it.
    const page = await visit("s-fence-self", `${app.url}/api/sessions`);
    expect(page).not.toContain("s-fence-allowed");
    const [task] = (await app.api<TasksReply>("GET", "/api/sessions/s-fence-self/tasks")).json.tasks;
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${task!.id}`)).json;
    expect(JSON.stringify(steps[0]!.tool)).toContain("EasyAgentCU never acts on its own UI");
    const redirected = await visit("s-fence-self-redirect", `${pages.url("redirect")}?to=${encodeURIComponent(`${app.url}/api/sessions`)}`);
    expect(redirected).toContain("Blocked");
    expect(redirected).toContain("own server");
    expect(redirected).not.toContain("s-fence-allowed");
  });

  it("never opens a BLOCKED_DOMAINS site the agent names, and on one a redirect took it to lets it only look and leave", async () => {
    // The page it leaves to is named in the task: leaving a page for it asks nothing.
    const goal = `visit s-fence-blocked, then ${pages.url("form.html")}`;
    const blockedByRedirect = `${pages.url("redirect")}?to=${encodeURIComponent("http://www.blocked.example/")}`;
    model.route(
      agentOf(goal),
      calls(["goto", { url: "http://blocked.example/" }]),
      calls(["goto", { url: blockedByRedirect }]),
      calls(["keys", { method: "type", value: "hello" }]),
      calls(["goto", { url: pages.url("form.html") }]),
      calls(["close", { reasoning: "left it", taskComplete: true }]),
    );
    const events = await openStream(app.url, "s-fence-blocked", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-fence-blocked", text: goal });
    await events.completes(json.task_id);
    events.close();
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => [s.tool?.name, s.tool?.ok])).toEqual([
      ["goto", false],
      ["goto", true],
      ["keys", false],
      ["goto", true],
      ["close", true],
    ]);
    expect(steps[0]!.tool!.error).toMatchObject({ code: "DENIED", message: "The agent never opens http://blocked.example: it is on the block-list (BLOCKED_DOMAINS)." });
    expect(steps[1]!.url).toBe("http://www.blocked.example/");
    expect(steps[2]!.tool!.error).toMatchObject({ code: "DENIED", message: expect.stringContaining("http://www.blocked.example is on the block-list (BLOCKED_DOMAINS): the agent may only leave it") });
    expect(steps[3]!.url).toBe(pages.url("form.html"));
  });

  it("with ALLOWED_DOMAINS set, opens no other public site, by name or through a redirect, and still the local origins allowed", async () => {
    const only = await startApp({ modelBaseUrl: model.baseUrl, config: { approvals: ALLOW_EVERYTHING, network: { allowedDomains: ["docs.example"] } } });
    try {
      // The page it leaves to is named in the task: leaving a page for it asks nothing.
      const goal = `visit s-fence-only, then ${pages.url("form.html")}`;
      const redirected = `${pages.url("redirect")}?to=${encodeURIComponent("http://elsewhere.example/")}`;
      model.route(
        agentOf(goal),
        calls(["goto", { url: "http://elsewhere.example/" }]),
        calls(["goto", { url: redirected }]),
        calls(["ariaTree", {}]),
        calls(["goto", { url: pages.url("form.html") }]),
        calls(["close", { reasoning: "seen", taskComplete: true }]),
      );
      const events = await openStream(only.url, "s-fence-only", 0);
      const { json } = await only.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-fence-only", text: goal });
      await events.completes(json.task_id);
      events.close();
      const { steps } = (await only.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(steps[0]!.tool!.error).toMatchObject({ code: "DENIED", message: "The agent never opens http://elsewhere.example: it is not on the allow-list (ALLOWED_DOMAINS)." });
      expect(JSON.stringify(steps[2]!.tool!.output)).toContain("elsewhere.example is not on the allow-list (ALLOWED_DOMAINS)");
      expect(steps[3]).toMatchObject({ url: pages.url("form.html"), tool: { ok: true } });
    } finally {
      await only.close();
    }
  });

  it("never reaches a link-local or cloud-metadata address", async () => {
    expect(await visit("s-fence-metadata", "http://169.254.169.254/latest/meta-data/")).toContain("link-local or cloud-metadata");
  });

  it("asks before the first visit to a local service the allow-list does not name, and never reaches it through a redirect", async () => {
    expect(await visit("s-fence-service", `${serviceUrl}/direct`, [false])).not.toContain("private service");
    expect(await visit("s-fence-redirect", `${pages.url("redirect")}?to=${encodeURIComponent(`${serviceUrl}/redirected`)}`)).toContain("Blocked");
    expect(hits).toEqual([]);
    // Allowed once, the origin stays open while the server runs.
    expect(await visit("s-fence-allowed-service", `${serviceUrl}/allowed`, [true])).toContain("private service");
    expect(await visit("s-fence-again", `${serviceUrl}/again`)).toContain("private service");
    expect(hits.filter((hit) => hit !== "/favicon.ico")).toEqual(["/allowed", "/again"]);
  });
});
