// A page's reader text over 256 KB is saved as an artifact that can be read back: the tool agent
// is told its id, reads a later range of it and finds a word in it with readArtifact, and
// GET /api/tasks/:id/artifacts/:artifact_id returns the same text for the same range.
import { describe, expect, it } from "vitest";
import type { ArtifactReply, TaskReply } from "../../src/protocol/index.ts";
import { systemText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// A generous model timeout: the tokenizer loading on a busy machine would fire a short one first.
const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 } } });

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

/** The artifact id the model was told in its first look at the page, as a model reading it would find it. */
const artifactIn = (r: RecordedRequest) => {
  const id = /saved as artifact (art_[a-z0-9]+)/.exec(JSON.stringify(r.body.messages[1]))?.[1];
  if (!id) throw new Error("the model was not told of an artifact");
  return id;
};

/** The last tool result the model read: its JSON line, then the text after it. */
function lastToolResult(r: RecordedRequest): { json: { ok: boolean; data: Record<string, unknown> }; text: string } {
  const content = r.body.messages.filter((m) => m.role === "tool").at(-1)!.content as string;
  const [line, ...rest] = content.split("\n");
  return { json: JSON.parse(line!), text: rest.join("\n") };
}

describe("artifacts", () => {
  it("lets the agent read a later range of a long page's text and search it, and the route returns the same text", async () => {
    const goal = "Find what the ledger says about zephyrine";
    const readLater: Responder = (r) => calls(["readArtifact", { artifactId: artifactIn(r), offset: 250_000, length: 600 }]);
    const search: Responder = (r) => calls(["readArtifact", { artifactId: artifactIn(r), search: "ZEPHYRINE" }]);
    model.route(agentOf(goal), readLater, search, calls(["close", { reasoning: "Entry 5321 carried zephyrine.", taskComplete: true }]));
    const { json: sent } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-artifacts", text: goal, start_url: pages.url("ledger.html") });
    const events = await openStream(app.url, "s-artifacts", 0);
    const end = await events.waitForEnd(sent.task_id, 90_000);
    events.close();
    expect(end).toMatchObject({ type: "task.completed", answer: "Entry 5321 carried zephyrine." });

    const requests = model.requests.filter(agentOf(goal));
    const artifactId = artifactIn(requests[0]!);
    const route = (query: string) => app.api<ArtifactReply>("GET", `/api/tasks/${sent.task_id}/artifacts/${artifactId}${query}`);

    // The range the agent read is the route's range, character for character.
    const range = lastToolResult(requests[1]!);
    expect(range.json).toMatchObject({ ok: true, data: { artifactId, offset: 250_000, length: 600, more: true } });
    const { status, json: served } = await route("?offset=250000&length=600");
    expect(status).toBe(200);
    expect(served).toMatchObject({ artifact_id: artifactId, task_id: sent.task_id, offset: 250_000, length: 600, total_chars: range.json.data.totalChars });
    expect(served.text).toBe(range.text);
    expect(served.text).toMatch(/Entry \d+: the ship Number \d+ docked/);

    // The search found the one entry, in any case, and its offset is where the route has the word.
    const found = lastToolResult(requests[2]!).json;
    expect(found).toMatchObject({ ok: true, data: { artifactId, search: "ZEPHYRINE", found: 1 } });
    const [match] = found.data.matches as { offset: number; text: string }[];
    expect(match!.text).toContain("Number 5321 docked at berth 1 with 15963 crates of goods. The cargo of this ship was the spice called zephyrine.");
    expect((await route(`?offset=${match!.offset}&length=9`)).json.text).toBe("zephyrine");

    // The whole text, from the route, holds every entry.
    const whole = (await route("")).json;
    expect(whole.length).toBe(whole.total_chars);
    expect(whole.text).toContain("Entry 6000: the ship Number 6000");
    expect(Buffer.byteLength(whole.text, "utf8")).toBeGreaterThan(256 * 1024);

    const { json: task } = await app.api<TaskReply>("GET", `/api/tasks/${sent.task_id}`);
    expect(task.steps.map((s) => s.tool?.name)).toEqual(["readArtifact", "readArtifact", "close"]);
  });

  it("answers an unknown artifact or task with 404 and a bad range with 400", async () => {
    const { json: tasks } = await app.api<{ tasks: { id: string }[] }>("GET", "/api/sessions/s-artifacts/tasks");
    const taskId = tasks.tasks[0]!.id;
    expect((await app.api("GET", `/api/tasks/${taskId}/artifacts/art_nothere`)).status).toBe(404);
    expect((await app.api("GET", `/api/tasks/${taskId}/artifacts/..%2F..%2Fmeta`)).status).toBe(404);
    expect((await app.api("GET", "/api/tasks/no-such-task/artifacts/art_nothere")).status).toBe(404);
    const artifactId = /saved as artifact (art_[a-z0-9]+)/.exec(JSON.stringify(model.requests.find(agentOf("Find what the ledger says about zephyrine"))!.body.messages[1]))![1];
    const bad = await app.api<{ error: { code: string; message: string } }>("GET", `/api/tasks/${taskId}/artifacts/${artifactId}?offset=-1`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "INVALID_BODY", message: expect.stringContaining("offset") });
  });
});
