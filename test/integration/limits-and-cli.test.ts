// The safety limits end a task with a reason; `easyagentcu run` runs one task in the terminal
// and exits 0 only when it completed, and neither it nor `replay` runs on a data dir in use.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startApp } from "../support/app.ts";
import { openStream } from "../support/sse.ts";
import { Store } from "../../src/store/store.ts";
import { act, planningText, systemText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { runProduct } from "../support/product-process.ts";
import { fixtureOrigins } from "../support/fixture-server.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });

describe("limits", () => {
  it("fails a task at its step limit and at its time limit, saying which", async () => {
    const [stepApp, timeApp] = await Promise.all([
      startApp({ modelBaseUrl: model.baseUrl, config: { limits: { maxSteps: 2 } } }),
      startApp({ modelBaseUrl: model.baseUrl, config: { limits: { maxDurationMs: 1500 } } }),
    ]);
    try {
      model.route((r) => planningText(r).includes("Task: endless"), act("wait", { ms: 10 }), act("wait", { ms: 10 }), act("wait", { ms: 10 }));
      model.route((r) => planningText(r).includes("Task: too slow"), { ...act("done", { answer: "late" }), delayMs: 10_000 });
      const endless = await stepApp.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-steps", text: "endless" });
      const slow = await timeApp.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-time", text: "too slow" });
      const [steps, time] = await Promise.all([openStream(stepApp.url, "s-steps", 0), openStream(timeApp.url, "s-time", 0)]);
      expect(await steps.waitForEnd(endless.json.task_id)).toMatchObject({
        type: "task.failed",
        error: { code: "STEP_LIMIT", message: "The task reached its limit of 2 steps." },
      });
      expect(await time.waitForEnd(slow.json.task_id)).toMatchObject({
        type: "task.failed",
        error: { code: "TIME_LIMIT", message: "The task reached its time limit of 1.5 seconds." },
      });
      steps.close();
      time.close();
    } finally {
      await Promise.all([stepApp.close(), timeApp.close()]);
    }
  });
});

describe("easyagentcu run", () => {
  const cli = async (args: string[], dataDir?: string) => {
    const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), "easyagentcu-cli-")));
    // The fixture pages are a local service: the CLI's browser may open them because they are named.
    const run = await runProduct([...args, "--data-dir", dir], { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", MODEL_BACKOFF_MS: "20", ALLOWED_ORIGINS: fixtureOrigins().join(",") });
    return { ...run, dataDir: dir };
  };
  const run = (task: string, url: string) => cli(["run", task, "--url", url]);

  it("prints each progress line and exits 0 when the task completed", async () => {
    model.route(
      (r) => planningText(r).includes("Task: cli press"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "Pressed." }, "Done"),
    );
    const { code, out } = await run("cli press", pages.url("form.html"));
    expect(out.trim().split("\n")).toEqual([
      "▶ cli press",
      "  1. Pressing the button",
      "  2. Done",
      "✓ Pressed.",
      "  2 steps · 2,400 tokens in, 120 out · cost unknown: no price for qwen:scripted-vl (MODEL_PRICES_FILE can give one)",
    ]);
    expect(code).toBe(0);
    await pages.waitForRecord("clicked");
  });

  it("exits 1 when the task failed", async () => {
    model.route((r) => planningText(r).includes("Task: cli fail"), { status: 500 });
    const { code, out } = await run("cli fail", pages.url("form.html"));
    expect(out).toContain("✗ MODEL_HTTP_ERROR: The model endpoint answered HTTP 500");
    expect(code).toBe(1);
  });

  it("runs a tool-agent task with --mode dom, then replays it without the model", async () => {
    const goal = "cli tool press";
    const agent = (r: RecordedRequest) => systemText(r).startsWith("<identity>") && JSON.stringify(r.body).includes(`Goal: ${goal}`);
    const calls = (name: string, args: unknown): Reply => ({ chat: { calls: [{ name, arguments: args }] } });
    model.route(agent, calls("act", { action: "click Press me" }), calls("close", { reasoning: "Pressed.", taskComplete: true }));
    model.route(
      (r) => systemText(r).startsWith("You choose elements") && userText(r).includes("form.html"),
      (r) => ({ text: JSON.stringify({ ref: /button "Press me" \[ref=([a-z0-9]+)\]/.exec(userText(r))![1], method: "click" }) }),
    );
    const first = await cli(["run", goal, "--url", pages.url("form.html"), "--mode", "dom"]);
    expect(first.out).toContain("✓ Pressed.");
    expect(first.code).toBe(0);
    const taskId = await taskIdIn(first.dataDir);
    const before = model.requests.length;
    const again = await cli(["replay", taskId], first.dataDir);
    expect(again.out.trim().split("\n")).toEqual(["▶ cli tool press", "  1. act \"click Press me\"", "✓ Pressed.", "", "_Run again: replayed step 1 without the model._", "  1 step · 0 tokens in, 0 out · $0"]);
    expect(again.code).toBe(0);
    expect(model.requests.length).toBe(before);
  });

  it("refuses to run or replay on a data dir a server holds, and says so", async () => {
    const server = await startApp({ modelBaseUrl: model.baseUrl });
    try {
      for (const args of [["run", "beside a server", "--url", pages.url("form.html")], ["replay", "task_any"]]) {
        const { code, out, err } = await cli(args, server.dataDir);
        expect(err).toContain(`Another EasyAgentCU process (a server, or a run or replay) is using ${server.dataDir}; stop it first, or give this one another --data-dir.`);
        expect(out).toBe("");
        expect(code).toBe(1);
      }
    } finally {
      await server.close();
    }
    expect(model.requests.some((r) => planningText(r).includes("Task: beside a server"))).toBe(false);
  });
});

/** The one task in a data directory the CLI used. */
async function taskIdIn(dataDir: string): Promise<string> {
  const store = await Store.open(dataDir);
  try {
    const [session] = await store.listSessions();
    const [task] = await store.listTasks(session!.id);
    return task!.id;
  } finally {
    await store.close();
  }
}
