// The model's endpoint misbehaves the ways real ones do: rate limits with retry-after, 5xx, a
// request that hangs, a body that is not JSON. Retries are bounded and visible; Stop still works
// while the runtime waits to retry.
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/index.ts";
import { act, planningText, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 800 } } });

async function run(task: string, ...replies: Reply[]) {
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...replies);
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  return { end, requests: model.requests.filter((r) => planningText(r).includes(`Task: ${task}`)), taskId: json.task_id, session };
}

const done = act("done", { answer: "ok" });

describe("the model's HTTP endpoint", () => {
  it("waits as long as retry-after says after a 429, then goes on", async () => {
    const { end, requests } = await run("rate limited", { status: 429, headers: { "retry-after": "1" }, body: '{"error":"slow down"}' }, done);
    expect(end.type).toBe("task.completed");
    expect(requests).toHaveLength(2);
    expect(requests[1]!.at - requests[0]!.answeredAt!).toBeGreaterThanOrEqual(950);
  });

  it("retries a 5xx with backoff until it succeeds", async () => {
    const { end, requests } = await run("flaky", { status: 502 }, { status: 503 }, done);
    expect(end.type).toBe("task.completed");
    expect(requests).toHaveLength(3);
  });

  it("gives up on a request that hangs after the timeout, retries it, and fails saying so", async () => {
    const hang = { ...done, delayMs: 5_000 };
    const { end, requests } = await run("hanging", hang, hang, hang, hang);
    expect(requests).toHaveLength(4);
    expect(end).toMatchObject({ type: "task.failed", error: { code: "MODEL_TIMEOUT" } });
    expect((end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("did not answer within 0.8 s");
  });

  it("does not retry a body that is not JSON, or a 400", async () => {
    const notJson = await run("not json body", { status: 200, body: "<html>proxy error</html>" });
    expect(notJson.end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect((notJson.end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("not JSON");
    expect(notJson.requests).toHaveLength(1);
    const bad = await run("bad request", { status: 400, body: '{"error":"bad model name"}' });
    expect(bad.requests).toHaveLength(1);
    expect((bad.end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("HTTP 400");
  });

  it("stops at once while it waits to retry", async () => {
    model.route((r) => planningText(r).includes("Task: stop while waiting"), { status: 429, headers: { "retry-after": "30" } });
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-stop-wait", text: "stop while waiting" });
    const events = await openStream(app.url, "s-stop-wait", 0);
    await expect.poll(() => model.requests.filter((r) => planningText(r).includes("Task: stop while waiting")).length).toBe(1);
    await app.api("POST", "/api/chat/stop", { task_id: json.task_id });
    expect(await events.waitForEnd(json.task_id, 2_000)).toMatchObject({ type: "task.stopped" });
    events.close();
  });
});
