// The agent's own browser is fenced off (issue 12): it never reaches EasyAgentCU's own server, a
// link-local or cloud-metadata address, or a local service the allow-list does not name — typed,
// or through a redirect from an allowed page. The fixture pages, which the allow-list names, open.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

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

/** Sends the tool agent to `url` and returns the ARIA tree of the page it ended on, as it read it. */
async function visit(session: string, url: string): Promise<string> {
  const goal = `visit ${session}`;
  model.route(agentOf(goal), calls(["goto", { url }]), calls(["ariaTree", {}]), calls(["close", { reasoning: "seen", taskComplete: true }]));
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: session, text: goal });
  const events = await openStream(app.url, session, 0);
  expect(await events.waitForEnd(json.task_id)).toMatchObject({ type: "task.completed" });
  events.close();
  const stored = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
  return JSON.stringify(stored.steps[1]!.tool!.output);
}

describe("the network fence", () => {
  it("opens the fixture pages the allow-list names", async () => {
    expect(await visit("s-fence-allowed", pages.url("form.html"))).toContain("Press me");
  });

  it("never lets the agent's browser reach EasyAgentCU's own server", async () => {
    const page = await visit("s-fence-self", `${app.url}/api/sessions`);
    expect(page).toContain("Blocked");
    expect(page).toContain("own server");
    expect(page).not.toContain("s-fence-allowed");
  });

  it("never reaches a link-local or cloud-metadata address", async () => {
    expect(await visit("s-fence-metadata", "http://169.254.169.254/latest/meta-data/")).toContain("link-local or cloud-metadata");
  });

  it("does not reach a local service the allow-list does not name, nor through a redirect from an allowed page", async () => {
    expect(await visit("s-fence-service", `${serviceUrl}/direct`)).toContain("ALLOWED_ORIGINS");
    expect(await visit("s-fence-redirect", `${pages.url("redirect")}?to=${encodeURIComponent(`${serviceUrl}/redirected`)}`)).toContain("Blocked");
    expect(hits).toEqual([]);
  });
});
