// Every planner adapter meets a misbehaving endpoint the same way, since each goes through the
// one model HTTP exchange: a 429 is retried after its retry-after, a 5xx and a request that
// hangs past the timeout are retried, and a body that is not JSON fails the task at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODEL_PROVIDERS, type ModelProvider, type SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { act, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

/** Every provider of the table: a new one cannot be left out. */
const PROVIDERS: readonly ModelProvider[] = MODEL_PROVIDERS;

const { model, pages } = useWorld({ app: false });
let app: TestApp;
// Each task picks its provider (POST /api/chat/send's `model`); every provider's endpoint is the scripted model.
beforeAll(async () => {
  const providers = Object.fromEntries(PROVIDERS.map((p) => [p, { name: `${p}-test`, apiKey: "k", baseUrl: model.baseUrl }]));
  // Long enough that an answered request on a busy machine is not taken for a hanging one (with 800 ms
  // a full run once failed the hanging test for the qwen adapter), short enough to wait out.
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { timeoutMs: 2_000 }, providers } });
});
afterAll(() => app.close());

/** A reply that ends the task with "ok", in each adapter's own wire format. */
const DONE: Record<ModelProvider, Reply> = {
  qwen: act("done", { answer: "ok" }),
  som: { answer: { thought: "Finished.", progress: "Done", action: "done", answer: "ok" } },
  uitars: { text: "Thought: Finished.\nAction: finished(content='ok')" },
  opencua: { text: "## Thought:\nFinished.\n## Action:\nFinish.\n## Code:\n```python\ncomputer.terminate(status='success', answer='ok')\n```" },
  anthropic: {
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "anthropic-test",
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    },
  },
  openai: {
    message: {
      id: "resp_1",
      object: "response",
      status: "completed",
      output: [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] }],
      usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
    },
  },
  gemini: {
    message: {
      candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
      modelVersion: "gemini-test",
    },
  },
};

async function run(provider: ModelProvider, task: string, ...replies: Reply[]) {
  const mine = (r: RecordedRequest) => JSON.stringify(r.body).includes(task);
  model.route(mine, ...replies);
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", {
    mode: "task",
    session_id: session,
    text: task,
    start_url: pages.url("form.html"),
    model: { provider },
  });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  return { end, requests: model.requests.filter(mine) };
}

describe.each(PROVIDERS)("the %s adapter", (provider) => {
  it("waits as long as retry-after says after a 429, then goes on", async () => {
    const { end, requests } = await run(provider, `${provider} rate limited`, { status: 429, headers: { "retry-after": "1" } }, DONE[provider]);
    expect(end).toMatchObject({ type: "task.completed", answer: "ok" });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.at - requests[0]!.answeredAt!).toBeGreaterThanOrEqual(950);
    expect(requests[0]!.path).toBe(requests[1]!.path);
  });

  it("retries a 500", async () => {
    const { end, requests } = await run(provider, `${provider} server error`, { status: 500, body: '{"error":"boom"}' }, DONE[provider]);
    expect(end).toMatchObject({ type: "task.completed", answer: "ok" });
    expect(requests).toHaveLength(2);
  });

  it("gives up on a request that hangs past the timeout and asks again", async () => {
    const { end, requests } = await run(provider, `${provider} hanging`, { ...DONE[provider], delayMs: 5_000 }, DONE[provider]);
    expect(end).toMatchObject({ type: "task.completed", answer: "ok" });
    expect(requests).toHaveLength(2);
  });

  it("fails the task at once on a body that is not JSON", async () => {
    const { end, requests } = await run(provider, `${provider} malformed`, { status: 200, body: "<html>bad gateway</html>" });
    expect(end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect((end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("not JSON");
    expect(requests).toHaveLength(1);
  });
});
