// What a task cost: each step's tokens priced by the model's price (MODEL_PRICES_FILE before the
// shipped list), summed per task and per chat, in the API, the live events and the terminal.
import { mkdtempSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionsReply, TaskReply } from "../../src/protocol/index.ts";
import { fixtureOrigins } from "../support/fixture-server.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { runProduct } from "../support/product-process.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// $2 per million tokens in and $10 out: each scripted answer (1,200 in, 60 out) costs $0.003.
const PRICES = path.join(mkdtempSync(path.join(tmpdir(), "prices-")), "prices.json");
writeFileSync(PRICES, JSON.stringify([{ model: "scripted-vl", input_per_mtok: 2, output_per_mtok: 10 }]));
const STEP = 0.003;

const { model, pages, app } = useWorld({ config: { prices: PRICES } });

async function runTask(session: string, text: string) {
  model.route((r) => planningText(r).includes(`Task: ${text}`), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }, "Done"));
  const events = await openStream(app.url, session, 0);
  const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text, start_url: pages.url("form.html") });
  expect(await events.waitForEnd(sent.json.task_id)).toMatchObject({ type: "task.completed" });
  events.close();
  return { taskId: sent.json.task_id, events: events.events };
}

describe("what a task cost", () => {
  it("prices every step, and sums them for the task and for the chat", async () => {
    const first = await runTask("s-cost", "press once");
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${first.taskId}`);
    expect(json.steps.map((s) => s.usage)).toEqual([
      { input_tokens: 1200, output_tokens: 60 },
      { input_tokens: 1200, output_tokens: 60 },
    ]);
    for (const step of json.steps) expect(step.cost_usd).toBeCloseTo(STEP, 9);
    expect(json.task.cost_usd).toBeCloseTo(2 * STEP, 9);
    // The live timeline has the same figures as the stored one.
    const appended = first.events.flatMap((e) => (e.type === "progress.append" ? [e.step.cost_usd] : []));
    expect(appended).toHaveLength(2);
    for (const cost of appended) expect(cost).toBeCloseTo(STEP, 9);

    await runTask("s-cost", "press again");
    const { sessions } = (await app.api<SessionsReply>("GET", "/api/sessions")).json;
    expect(sessions.find((s) => s.id === "s-cost")!.cost_usd).toBeCloseTo(4 * STEP, 9);
  });
});

describe("easyagentcu run prints what it cost", () => {
  const cli = async (args: string[], env: Record<string, string>) =>
    runProduct([...args, "--data-dir", await mkdtemp(path.join(tmpdir(), "easyagentcu-cli-"))], {
      MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", MODEL_BACKOFF_MS: "20", ALLOWED_ORIGINS: fixtureOrigins().join(","), ...env,
    });
  const script = (text: string) => model.route((r) => planningText(r).includes(`Task: ${text}`), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }, "Done"));

  it("on each step and in a summary, or says why it cannot", async () => {
    script("cli priced");
    const priced = await cli(["run", "cli priced", "--url", pages.url("form.html")], { MODEL_PRICES_FILE: PRICES });
    expect(priced.out.trim().split("\n")).toEqual(["▶ cli priced", "  1. Pressing the button  $0.003", "  2. Done  $0.003", "✓ Pressed.", "  2 steps · 2,400 tokens in, 120 out · $0.006"]);
    expect(priced.code).toBe(0);

    script("cli unpriced");
    const unpriced = await cli(["run", "cli unpriced", "--url", pages.url("form.html")], {});
    expect(unpriced.out.trim().split("\n")).toEqual([
      "▶ cli unpriced",
      "  1. Pressing the button",
      "  2. Done",
      "✓ Pressed.",
      "  2 steps · 2,400 tokens in, 120 out · cost unknown: no price for qwen:scripted-vl (MODEL_PRICES_FILE can give one)",
    ]);
  });

  it("will not start on a price file it cannot read", async () => {
    const bad = path.join(mkdtempSync(path.join(tmpdir(), "prices-")), "prices.json");
    writeFileSync(bad, JSON.stringify([{ model: "scripted-vl", input_per_mtok: "two", output_per_mtok: 10 }]));
    const refused = await cli(["run", "never runs", "--url", pages.url("form.html")], { MODEL_PRICES_FILE: bad });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("prices.0.input_per_mtok: must be a number of US dollars per million tokens");
    expect(refused.out).toBe("");
  });
});
