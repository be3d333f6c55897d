// Data too long to show whole is kept, not cut unseen: the tool agent's extract saves a long result
// as an artifact, which it reads back with readArtifact; Claude's browser toolset's get_page_text
// saves a long page's whole text as one. GET /api/tasks/:id/artifacts/:artifact_id returns each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArtifactReply, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { runDeciding } from "../support/decide.ts";
import { systemText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
/** A server whose model is Claude 5, which takes the browser toolset. */
let claude: TestApp;

beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { timeoutMs: 60_000 } } });
  claude = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "anthropic", name: "claude-sonnet-5", apiKey: "sk-ant-test", timeoutMs: 60_000 } } });
});

afterAll(async () => {
  await app?.close();
  await claude?.close();
});

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages).includes(`Goal: ${goal}`);
/** The artifact id the model was last told of, as a model reading its results would find it. */
const artifactIn = (r: RecordedRequest) => {
  const id = [...JSON.stringify(r.body.messages).matchAll(/saved (?:whole )?as artifact (art_[a-z0-9]+)/g)].at(-1)?.[1];
  if (!id) throw new Error("the model was not told of an artifact");
  return id;
};

/** 400 products, about 24,000 characters of JSON: more than a tool result keeps. */
const PRODUCTS = Array.from({ length: 400 }, (_, i) => ({ sku: `SKU-${String(i).padStart(4, "0")}`, name: `Product number ${i}`, price: 10 + i }));

describe("long results kept as artifacts", () => {
  it("saves extracted data too long to show, and the tool agent reads it back; the route returns the same JSON", async () => {
    const goal = "List every product on the page";
    const search: Responder = (r) => calls(["readArtifact", { artifactId: artifactIn(r), search: "SKU-0321" }]);
    model.route(agentOf(goal), calls(["extract", { instruction: "every product with its sku, name and price" }]), search, calls(["close", { reasoning: "SKU-0321 costs 331.", taskComplete: true }]));
    model.route((r) => systemText(r).startsWith("You extract data"), { text: JSON.stringify({ result: PRODUCTS }) });
    const { end, stored } = await runDeciding(app, "s-extract-artifact", { agent_mode: "dom", text: goal, start_url: pages.url("article.html") });
    expect(end).toMatchObject({ type: "task.completed" });
    expect(stored.steps.map((s) => [s.tool?.name, s.tool?.ok])).toEqual([
      ["extract", true],
      ["readArtifact", true],
      ["close", true],
    ]);

    const asked = model.requests.filter(agentOf(goal));
    const artifactId = artifactIn(asked[1]!);
    expect(JSON.stringify(asked[1]!.body.messages)).toContain(`too long to show whole: it is saved as artifact ${artifactId}. Read it in parts, or search it, with readArtifact.`);
    expect(stored.steps[1]!.tool!.output).toMatchObject({ artifactId, search: "SKU-0321", found: 1 });

    const { status, json: served } = await app.api<ArtifactReply>("GET", `/api/tasks/${stored.task.id}/artifacts/${artifactId}`);
    expect(status).toBe(200);
    expect(JSON.parse(served.text)).toEqual(PRODUCTS);
  });

  it("saves the whole text of a long page that Claude's get_page_text shows only the start of", async () => {
    const goal = "Read the whole ledger through Claude's browser";
    const members = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args, toolset: "browser" })) } });
    model.route(agentOf(goal), members(["get_page_text", {}]), { chat: { text: "The ledger has 6000 entries." } });
    const { end, stored } = await runDeciding(claude, "s-page-text-artifact", { agent_mode: "dom", text: goal, start_url: pages.url("ledger.html") });
    expect(end).toMatchObject({ type: "task.completed" });
    expect(stored.steps[0]!.tool).toMatchObject({ name: "get_page_text", ok: true, output: { artifactId: expect.stringMatching(/^art_/) } });

    const artifactId = artifactIn(model.requests.filter(agentOf(goal))[1]!);
    expect((stored.steps[0]!.tool!.output as { artifactId: string }).artifactId).toBe(artifactId);
    const { json: served } = await claude.api<ArtifactReply>("GET", `/api/tasks/${stored.task.id}/artifacts/${artifactId}`);
    expect(served.text).toContain("Entry 1: the ship Number 1");
    expect(served.text).toContain("Entry 6000: the ship Number 6000");
    const { json: task } = await claude.api<TaskReply>("GET", `/api/tasks/${stored.task.id}`);
    expect(task.steps.map((s) => s.tool?.name)).toEqual(["get_page_text", "close"]);
  });
});
