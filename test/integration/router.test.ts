// A chain of planners (seed 002 §2.1): when the primary keeps failing after its retries, or its
// output stays unusable after repair, the fallback takes over and the step says who acted. A
// task may also choose its own model in POST /api/chat/send.
import { describe, expect, it } from "vitest";
import type { ConfigInput, DeepPartial } from "../../src/core/config.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { planningText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });

const claude = (content: unknown[], stop: string): Reply => ({
  message: { id: "msg", type: "message", role: "assistant", content, stop_reason: stop, usage: { input_tokens: 10, output_tokens: 5 } },
});
const claudeClicks = claude([{ type: "text", text: "Pressing the button." }, { type: "tool_use", id: "toolu_1", name: "computer", input: { action: "left_click", coordinate: [200, 130] } }], "tool_use");
const claudeDone = claude([{ type: "text", text: "Pressed it." }], "end_turn");
const anthropicFor = (task: string) => (r: RecordedRequest) => r.path === "/v1/messages" && JSON.stringify(r.body).includes(`Task: ${task}`);

async function runWith(config: DeepPartial<ConfigInput>, session: string, task: string, body: Record<string, unknown> = {}, page = "form.html") {
  const app = await startApp({ modelBaseUrl: model.baseUrl, config });
  try {
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url(page), ...body });
    const events = await openStream(app.url, session, 0);
    const end = await events.waitFor((e) => e.type === "task.awaiting_user" || ((e.type === "task.completed" || e.type === "task.failed" || e.type === "task.stopped") && e.task_id === json.task_id));
    events.close();
    return { end, stored: (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json };
  } finally {
    await app.close();
  }
}

const withFallback = (): DeepPartial<ConfigInput> => ({
  model: { fallback: ["anthropic"], httpRetries: 1 },
  providers: { anthropic: { baseUrl: model.baseUrl, apiKey: "sk-ant", name: "claude-fallback" } },
});

describe("the router", () => {
  it("falls back when the primary keeps answering 5xx, and the step names the fallback", async () => {
    model.route((r) => planningText(r).includes("Task: primary down"), { status: 503 }, { status: 503 });
    // The fallback starts its own conversation, on the same task, from the same screen.
    const afterClick = claude([{ type: "text", text: "Done." }], "end_turn");
    model.route(anthropicFor("primary down"), claudeClicks, afterClick);
    const { end, stored } = await runWith(withFallback(), "s-router", "primary down");
    expect(end).toMatchObject({ type: "task.completed", answer: "Done." });
    await pages.waitForRecord("clicked");
    expect(stored.task.model).toBe("qwen:scripted-vl → anthropic:claude-fallback");
    expect(stored.steps.map((s) => s.planner)).toEqual(["anthropic:claude-fallback", "anthropic:claude-fallback"]);
  });

  it("falls back when the primary's output is still unusable after repair", async () => {
    model.route((r) => planningText(r).includes("Task: primary confused"), { text: "no" }, { text: "no" }, { text: "no" });
    model.route(anthropicFor("primary confused"), claudeDone);
    const { end, stored } = await runWith(withFallback(), "s-router-invalid", "primary confused");
    expect(end).toMatchObject({ type: "task.completed", answer: "Pressed it." });
    expect(stored.steps.map((s) => s.planner)).toEqual(["anthropic:claude-fallback"]);
  });

  it("does not fall back on a 400: the request is wrong for any model", async () => {
    model.route((r) => planningText(r).includes("Task: bad request"), { status: 400, body: '{"error":"bad"}' });
    const { end } = await runWith(withFallback(), "s-router-400", "bad request");
    expect(end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect(model.requests.some(anthropicFor("bad request"))).toBe(false);
  });

  it("lets a task choose its own model", async () => {
    model.route(anthropicFor("my own model"), claudeDone);
    const { end, stored } = await runWith(
      { providers: { anthropic: { baseUrl: model.baseUrl, apiKey: "sk-ant" } } },
      "s-choice",
      "my own model",
      { model: { provider: "anthropic", name: "claude-chosen" } },
    );
    expect(end).toMatchObject({ type: "task.completed" });
    expect(stored.task.model).toBe("anthropic:claude-chosen");
    expect(model.requests.filter(anthropicFor("my own model")).map((r) => (r.body as unknown as { model: string }).model)).toEqual(["claude-chosen"]);
  });

  it("gives a Set-of-Mark planner behind it the numbered elements it chooses from", async () => {
    model.route(
      (r) => planningText(r).includes("Task: marks behind a router"),
      { answer: { thought: "", progress: "Pressing the button", action: "click", element_id: 1 } },
      { answer: { thought: "", progress: "Done", action: "done", answer: "Pressed it." } },
    );
    const { end, stored } = await runWith({ ...withFallback(), model: { provider: "som", fallback: ["anthropic"], httpRetries: 1 } }, "s-router-som", "marks behind a router");
    expect(end).toMatchObject({ type: "task.completed", answer: "Pressed it." });
    await pages.waitForRecord("clicked");
    const first = model.requests.find((r) => planningText(r).includes("Task: marks behind a router"))!;
    expect(planningText(first)).toContain('[1] button "Press me" at (200, 130)');
    expect(stored.steps.map((s) => s.planner)).toEqual(["som:scripted-vl", "som:scripted-vl"]);
    expect(model.requests.some(anthropicFor("marks behind a router"))).toBe(false);
  });

  it("asks the person, with VERIFY_CLICKS=always, when the hit test fails and no planner of the chain can look", async () => {
    // "Runs away" is drawn anew further right whenever the pointer enters it: only a look could follow it.
    const runner: Responder = (r) => {
      const id = /\[(\d+)\] button "Runs away"/.exec(planningText(r))?.[1];
      return { answer: { thought: "", progress: "Pressing Runs away", action: "click", element_id: Number(id) } };
    };
    model.route((r) => planningText(r).includes("Task: nobody looks"), runner);
    const config = { ...withFallback(), model: { provider: "som" as const, fallback: ["anthropic" as const], httpRetries: 1 }, verification: { clicks: "always" as const } };
    const { end, stored } = await runWith(config, "s-router-look", "nobody looks", {}, "jumpy.html");
    expect(end).toMatchObject({ type: "task.awaiting_user" });
    expect(pages.records).not.toContain("runner-clicked");
    expect(stored.steps[0]!.verification).toMatchObject({ verified: false, model_calls: 0 });
    expect(stored.steps[0]!.text).toBe("Pressing Runs away (not clicked: the pointer could not be placed on it)");
  });
});
