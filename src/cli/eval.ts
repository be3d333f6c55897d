// `easyagentcu eval SUITE`: runs an evaluation suite in this process on a data dir of its own
// (DIR/data), with the suite's pages served beside it, a progress bar on stderr, and the report
// written to DIR/report.json and DIR/report.html; `eval --compare A B` prints two reports side by side.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config, ConfigInput, DeepPartial } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { nowIso } from "../core/ids.ts";
import { compareReports, readReport } from "../eval/compare.ts";
import { EndLooks } from "../eval/end-state.ts";
import { judgeFrom } from "../eval/judge.ts";
import { servePages } from "../eval/page-server.ts";
import { buildReport } from "../eval/report.ts";
import { reportHtml } from "../eval/report-html.ts";
import { runSuite, type TaskResult } from "../eval/runner.ts";
import { loadSuite, type Suite } from "../eval/suite.ts";
import { MODEL_PROVIDERS, type ModelProvider } from "../protocol/index.ts";
import { startSystem } from "./system.ts";

export interface EvalOptions {
  model?: string;
  episodes?: string;
  concurrency?: string;
  out?: string;
  ui?: string;
  compare?: string[];
  /** Only these task ids, comma-separated: a subset of a suite. */
  tasks?: string;
  dataDir?: string;
}

function count(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new AppError("INVALID_BODY", `${flag} must be a whole number of at least 1, not "${value}".`);
  return n;
}

/** `--model provider:name` as the configuration's model. */
function modelOverride(value: string | undefined): DeepPartial<ConfigInput> {
  if (value === undefined) return {};
  const [provider, ...name] = value.split(":");
  if (!MODEL_PROVIDERS.includes(provider as ModelProvider)) throw new AppError("INVALID_BODY", `--model must be provider:name with a provider among ${MODEL_PROVIDERS.join(", ")}, not "${value}".`);
  return { model: { provider: provider as ModelProvider, ...(name.length ? { name: name.join(":") } : {}) } };
}

/** The suite with only the tasks `--tasks` names, in the suite's order. */
function only(suite: Suite, ids: string | undefined): Suite {
  if (ids === undefined) return suite;
  const wanted = ids.split(",").map((id) => id.trim()).filter(Boolean);
  const unknown = wanted.filter((id) => !suite.tasks.some((t) => t.id === id));
  if (unknown.length > 0 || wanted.length === 0) throw new AppError("INVALID_BODY", `--tasks names ${unknown.length ? `no task of ${suite.name}: ${unknown.join(", ")}` : "no task"}; its tasks are ${suite.tasks.map((t) => t.id).join(", ")}.`);
  return { ...suite, tasks: suite.tasks.filter((t) => wanted.includes(t.id)) };
}

/** A bar on a terminal, a line per episode elsewhere (a CI log). */
function progress(total: number): (result: TaskResult, done: number) => void {
  let passed = 0;
  const tty = process.stderr.isTTY;
  return (result, done) => {
    if (result.success) passed++;
    const line = `${result.success ? "✓" : "✗"} ${result.id} #${result.episode} ${result.status} ${result.seconds.toFixed(1)}s`;
    if (!tty) {
      process.stderr.write(`[${done}/${total}] ${line}\n`);
      return;
    }
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r\x1b[2K${"█".repeat(filled)}${"░".repeat(width - filled)} ${done}/${total} · ${passed} passed · ${line}${done === total ? "\n" : ""}`);
  };
}

export async function evaluate(suiteFile: string | undefined, options: EvalOptions, configOf: (overrides: DeepPartial<ConfigInput>) => Config): Promise<void> {
  if (options.compare) {
    if (options.compare.length !== 2) throw new AppError("INVALID_BODY", "--compare takes two reports: eval --compare A/report.json B/report.json");
    const [a, b] = await Promise.all(options.compare.map(readReport));
    process.stdout.write(`${compareReports(a!, b!)}\n`);
    return;
  }
  if (!suiteFile) throw new AppError("INVALID_BODY", "Name a suite to run (easyagentcu eval evals/web/suite.yaml), or --compare two reports.");
  const suite = only(await loadSuite(suiteFile), options.tasks);
  const episodes = count(options.episodes, 1, "--episodes");
  const concurrency = count(options.concurrency, 2, "--concurrency");
  const startedAt = nowIso();
  const out = path.resolve(options.out ?? path.join("eval-runs", `${suite.name.replace(/[^A-Za-z0-9_-]+/g, "-")}-${startedAt.replace(/[:.]/g, "-")}`));
  await mkdir(out, { recursive: true });
  const pages = suite.pages ? await servePages(path.resolve(suite.dir, suite.pages)) : null;
  const base = configOf({
    dataDir: options.dataDir ?? path.join(out, "data"),
    ...modelOverride(options.model),
    ...(suite.approvals ? { approvals: suite.approvals } : {}),
  });
  const config: Config = {
    ...base,
    // The suite's own pages are a local service the agent's browser may open because the suite names them.
    network: { ...base.network, allowedOrigins: [...base.network.allowedOrigins, ...(pages ? [pages.origin, pages.origin.replace("127.0.0.1", "localhost")] : [])] },
    limits: { ...base.limits, maxConcurrentTasks: Math.max(base.limits.maxConcurrentTasks, concurrency) },
  };
  const looks = new EndLooks();
  const system = await startSystem(config, { recover: false, beforeClose: (task, computer) => looks.look(task.session_id, computer) });
  const aborter = new AbortController();
  process.once("SIGINT", () => aborter.abort());
  const total = suite.tasks.length * episodes;
  const tick = progress(total);
  try {
    const results = await runSuite(system, {
      suite,
      episodes,
      concurrency,
      pagesBase: pages?.base ?? null,
      looks,
      judge: judgeFrom(config),
      signal: aborter.signal,
      onResult: (result, done) => tick(result, done),
    });
    const model = options.model ?? `${config.model.provider}:${config.model.name}`;
    const ui = options.ui ?? `http://127.0.0.1:${config.port}`;
    const report = buildReport(suite.name, model, startedAt, results, ui);
    await writeFile(path.join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(path.join(out, "report.html"), reportHtml(report));
    const { summary } = report;
    process.stdout.write(
      [
        `${suite.name}: ${Math.round(summary.success_rate * 1000) / 10}% of ${summary.episodes} episodes succeeded · median ${summary.median_seconds}s · ${summary.total_cost_usd === null ? "no price for this model" : `$${summary.total_cost_usd}`}`,
        `Report: ${path.join(out, "report.html")} (data: report.json)`,
        `Its runs open in the UI once it serves this data dir: easyagentcu serve --data-dir ${config.dataDir}${options.ui ? "" : ` (links point at ${ui})`}`,
        "",
      ].join("\n"),
    );
  } finally {
    await system.close();
    await pages?.close();
  }
}
