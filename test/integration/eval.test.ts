// `easyagentcu eval` as a person runs it: the local web suite, served by the harness itself, solved
// by a scripted model that knows its pages, through the real runtime, Chromium and SQLite. The
// report's figures are read from the run: every task succeeds, each took the steps its solution
// has, and the tokens and money are the model's usage priced by the price table.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/eval/report.ts";
import { loadSuite } from "../../src/eval/suite.ts";
import { costUsd } from "../../src/models/prices.ts";
import { JUDGE_SYSTEM } from "../../src/eval/judge.ts";
import { act, planningText, startScriptedModel, systemText, userText, type ScriptedModel } from "../support/scripted-model.ts";
import { runProduct } from "../support/product-process.ts";
import { solveWebSuite } from "../support/web-suite-solver.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SUITE = path.join(ROOT, "evals/web/suite.yaml");
/** A model with a price, so the report's money is checked; the scripted server bills 1200 tokens in and 60 out a call. */
const MODEL = "claude-haiku-4-5";
const CALL = { input_tokens: 1200, output_tokens: 60 };

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model.close());

const evalCli = (args: string[]) =>
  runProduct(["eval", ...args], { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: MODEL, MODEL_DIALECT: "json", MODEL_API_KEY: "test-key", MODEL_BACKOFF_MS: "20", EVAL_JUDGE_MODEL: `qwen:${MODEL}` });

describe("easyagentcu eval", () => {
  let out: string;
  let report: Report;
  let steps: Map<string, number>;

  it("runs the local web suite on its own pages and reports every task solved", async () => {
    const suite = await loadSuite(SUITE);
    expect(suite.tasks.length).toBeGreaterThanOrEqual(30);
    steps = solveWebSuite(model, suite.tasks, 1);
    out = await mkdtemp(path.join(tmpdir(), "easyagentcu-eval-"));
    const run = await evalCli([SUITE, "--concurrency", "4", "--out", out]);
    expect(run.err).toContain(`[${suite.tasks.length}/${suite.tasks.length}]`);
    report = JSON.parse(await readFile(path.join(out, "report.json"), "utf8")) as Report;
    const failed = report.tasks.filter((t) => !t.success).map((t) => `${t.id}: ${t.status} ${t.error_code ?? ""} ${t.why}`);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("local-web: 100% of 32 episodes succeeded");
    expect(report).toMatchObject({ suite: "local-web", model: `qwen:${MODEL}` });
    expect(report.tasks.map((t) => t.id)).toEqual(suite.tasks.map((t) => t.id));
    expect(report.summary.success_rate).toBe(1);
    // For the report of the change: what a run of the suite costs in time with a model that answers at once.
    console.log("local web suite:", JSON.stringify(report.summary));
  }, 300_000);

  it("counts each task's steps, tokens and cost from what the model billed", () => {
    let cost = 0;
    for (const task of report.tasks) {
      const n = steps.get(task.id)!;
      expect({ id: task.id, steps: task.steps, status: task.status }).toEqual({ id: task.id, steps: n, status: "completed" });
      expect(task.tokens_in).toBe(n * CALL.input_tokens);
      expect(task.tokens_out).toBe(n * CALL.output_tokens);
      expect(task.cost_usd).toBeCloseTo(costUsd(MODEL, { input_tokens: task.tokens_in, output_tokens: task.tokens_out })!, 9);
      expect(task.model_seconds).toBeLessThanOrEqual(task.seconds);
      expect(task.harness_seconds).toBeGreaterThan(0);
      cost += task.cost_usd!;
    }
    const all = [...steps.values()].reduce((a, b) => a + b, 0);
    expect(report.summary).toMatchObject({ episodes: 32, tokens_in: all * CALL.input_tokens, tokens_out: all * CALL.output_tokens });
    expect(report.summary.mean_steps).toBeCloseTo(all / 32, 2);
    expect(report.summary.total_cost_usd).toBeCloseTo(cost, 6);
  });

  it("shows the judge the end screen and the answer", () => {
    const judged = model.requests.filter((r) => systemText(r) === JUDGE_SYSTEM);
    expect(judged).toHaveLength(1);
    expect(userText(judged[0]!)).toContain("The agent's final answer: The Desk.");
    expect(JSON.stringify(judged[0]!.body.messages)).toContain("data:image/jpeg;base64,");
    expect(report.tasks.find((t) => t.id === "table-judged")!.why).toContain("the judge says: The answer names the Desk");
  });

  it("writes a page with every task, its runs' links, the distributions and the slowest steps", async () => {
    const html = await readFile(path.join(out, "report.html"), "utf8");
    for (const task of report.tasks) expect(html).toContain(`<th scope="row">${task.id}</th>`);
    expect(html).toContain(`href="${report.tasks[0]!.run_url}"`);
    expect(report.tasks[0]!.run_url).toMatch(/^http:\/\/127\.0\.0\.1:8000\/s\/eval_/);
    expect(html).toContain("Seconds per episode");
    expect(html).toContain("Cost per episode");
    expect(report.slowest_steps).toHaveLength(10);
    expect(html).toContain(report.slowest_steps[0]!.text);
    expect(report.slowest_steps[0]!.longest_phase).toMatch(/^[a-z]+ \d+\.\d\d s$/);
    expect(report.slowest_steps.map((s) => s.seconds)).toEqual([...report.slowest_steps.map((s) => s.seconds)].sort((a, b) => b - a));
    // The links open the runs: the data dir beside the report holds their chats.
    expect(existsSync(path.join(out, "data", "sessions"))).toBe(true);
  });

  it("shows two reports side by side, per task and overall", async () => {
    const other: Report = { ...report, model: "qwen:other", tasks: report.tasks.map((t) => (t.id === "table-sort" ? { ...t, success: false } : t)), summary: { ...report.summary, success_rate: 31 / 32 } };
    const b = path.join(out, "other.json");
    await writeFile(b, JSON.stringify(other));
    const run = await evalCli(["--compare", path.join(out, "report.json"), b]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^table-sort\s+1\/1\s+0\/1\s/m);
    expect(run.out).toMatch(/^overall\s+100\.0%\s+96\.9%\s/m);
    expect(run.out).toContain("B: local-web · qwen:other");
  });

  it("fails a task that asks a person as needs_user, unless the suite says how the person answers", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "easyagentcu-suite-"));
    const suite = (name: string, person: string) =>
      `name: ${name}\npages: ${path.join(ROOT, "evals/web/pages")}\n${person}tasks:\n  - id: send\n    text: '${name}: press Send on the empty contact form.'\n    start_url: form.html\n    check: {page_text: 'Please enter your name'}\n`;
    for (const name of ["nobody answers", "the person approves"]) {
      model.route((r) => planningText(r).includes(`Task: ${name}: press Send`), act("click", { x: 100, y: 320 }, "Send"), act("done", { answer: "The form asks for a name." }, "Done"));
    }
    await writeFile(path.join(dir, "ask.yaml"), suite("nobody answers", ""));
    await writeFile(path.join(dir, "approve.yaml"), suite("the person approves", "person: {approvals: approve}\n"));
    const [asked, approved] = await Promise.all(["ask", "approve"].map(async (name) => {
      const run = await evalCli([path.join(dir, `${name}.yaml`), "--out", path.join(dir, name)]);
      expect(run.code).toBe(0);
      return (JSON.parse(await readFile(path.join(dir, name, "report.json"), "utf8")) as Report).tasks[0]!;
    }));
    expect(asked).toMatchObject({ success: false, status: "needs_user", why: expect.stringMatching(/^the task ended needs_user \(it asked to approve: .*Send/) });
    expect(approved).toMatchObject({ success: true, status: "completed", steps: 2 });
  }, 120_000);

  it("refuses a suite with a wrong check before running anything, naming the task and the field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "easyagentcu-suite-"));
    const file = path.join(dir, "wrong.yaml");
    await writeFile(file, "name: wrong\ntasks:\n  - id: fine\n    text: Open it.\n    check: {url: it}\n  - id: typo\n    text: Open that.\n    check: {pagetext: that}\n");
    const before = model.requests.length;
    const run = await evalCli([file, "--out", dir]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('task "typo" (tasks[1]) check: Unrecognized key: "pagetext"');
    expect(model.requests.length).toBe(before);
    expect(existsSync(path.join(dir, "report.json"))).toBe(false);
  });
});
