#!/usr/bin/env node
// `easyagentcu serve` runs the server (what `npm start` runs); `easyagentcu run "task"` runs one
// task in the terminal, printing each progress line (and where each file it received was saved)
// as it comes, and exits 0 only on success;
// `easyagentcu replay <task_id>` runs a recorded task again the same way;
// `easyagentcu export <task_id> --format json|playwright` prints its trajectory or a Playwright script;
// `easyagentcu mcp` serves MCP over stdio (stdout is the protocol's: logs go to stderr).
// `easyagentcu eval SUITE` runs an evaluation suite and writes its report (cli/eval.ts).
// `easyagentcu worker` runs the tasks `serve` queued on Postgres (TASK_QUEUE=postgres).
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline/promises";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Command } from "commander";
import { SANDBOXED } from "../computers/browser/browser-host.ts";
import type { TaskCommands } from "../agent/task-commands.ts";
import { type Config, type DeepPartial, type ConfigInput } from "../core/config.ts";
import { loadConfig } from "../core/load-config.ts";
import { newId } from "../core/ids.ts";
import { exportTask } from "../agent/export/index.ts";
import { createMcpServer } from "../mcp/server.ts";
import { Store } from "../store/store.ts";
import { agentModeSchema, exportQuerySchema, describeStep, formatUsd, type ProgressStep, type SessionEvent, type Task } from "../protocol/index.ts";
import { listen } from "../server/listen.ts";
import { evaluate, type EvalOptions } from "./eval.ts";
import { TaskJobs } from "../worker/task-jobs.ts";
import { createLogger, startSystem, WEB_DIR, type System } from "./system.ts";
import { work } from "./worker.ts";

interface CommonOptions {
  dataDir?: string;
  computer?: string;
  cdpUrl?: string;
  target?: string;
  /** `--attach-chrome` alone: the default profile's Chrome; with a folder: that profile's. */
  attachChrome?: string | boolean;
}

function config(overrides: DeepPartial<ConfigInput>, options: CommonOptions): Config {
  const browser = {
    ...(options.cdpUrl ? { cdpUrl: options.cdpUrl } : {}),
    ...(options.target ? { cdpTargetId: options.target } : {}),
    ...(options.attachChrome ? { attachChrome: true } : {}),
    ...(typeof options.attachChrome === "string" ? { chromeProfileDir: options.attachChrome } : {}),
  };
  return loadConfig(process.env, {
    ...overrides,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.computer ? { computer: options.computer as Config["computer"] } : {}),
    ...(Object.keys(browser).length > 0 ? { browser } : {}),
  });
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

async function serve(options: CommonOptions & { host?: string; port?: string }): Promise<void> {
  const cfg = config({ ...(options.host ? { host: options.host } : {}), ...(options.port ? { port: Number(options.port) } : {}) }, options);
  // Off loopback, or behind a proxy that names it, anyone who reaches it could drive the agent: a
  // token is required, made up if none is given.
  const open = isLoopback(cfg.host) && cfg.allowedHosts.length === 0;
  const authToken = cfg.authToken ?? (open ? undefined : randomBytes(24).toString("base64url"));
  const queue = cfg.taskQueue === "postgres" ? await TaskJobs.open(cfg.databaseUrl!, createLogger(cfg)) : undefined;
  const system = await startSystem(cfg, { recover: true, queue });
  const server = await listen({ ...system, webDir: WEB_DIR, authToken, allowedHosts: cfg.allowedHosts, ratePerSecond: cfg.limits.ratePerSecond, defaultComputer: cfg.computer }, cfg.host, cfg.port);
  system.serving(server.port);
  system.log.info({ url: server.url, dataDir: cfg.dataDir, model: system.live.current.model.name, signIn: authToken !== undefined }, "EasyAgentCU is listening");
  if (!SANDBOXED && !cfg.browser.cdpUrl && !cfg.browser.attachChrome && cfg.browser.cdpUrls.length === 0 && !cfg.browser.cdpCommand) system.log.warn("running as root, so Chromium runs without its sandbox; run EasyAgentCU as an ordinary user to keep it");
  if (queue && !cfg.s3.bucket) system.log.warn("TASK_QUEUE=postgres without S3_BUCKET: the screenshots and files a worker keeps are under its own DATA_DIR, so this server can show them only if every worker shares its DATA_DIR; set S3_BUCKET for all of them");
  process.stdout.write(`EasyAgentCU is running at ${server.url}\n`);
  void system.modelStatus().then((status) => {
    if (!status.ready) system.log.warn({ setting: status.setting, endpoint: status.endpoint }, `the model cannot be asked yet: ${status.detail} Set it in the app (Model settings, no restart needed), or set ${status.setting}${status.problem === "no_key" ? ", or MODEL_BASE_URL for a local server (Ollama, vLLM)," : ""} and start again.`);
  });
  if (authToken) {
    process.stdout.write(`Sign in by opening ${server.url}/login?token=${authToken}\n`);
    for (const name of cfg.allowedHosts) process.stdout.write(`  or, through your proxy, https://${name}/login?token=${authToken}\n`);
  }
  let closing = false;
  const shutdown = async () => {
    // A second Ctrl-C means now, even if a browser hangs while closing.
    if (closing) process.exit(1);
    closing = true;
    await system.runtime.shutdown();
    await server.close();
    await queue?.close(false);
    await system.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

async function run(task: string, options: CommonOptions & { url?: string; mode?: string }): Promise<void> {
  const cfg = quietConfig(options);
  const system = await startSystem(cfg, { recover: false });
  const sessionId = newId("cli");
  await system.store.ensureSession(sessionId, task);
  const mode = options.mode === undefined ? undefined : agentModeSchema.parse(options.mode);
  await follow(system, sessionId, () => system.runtime.submit({ sessionId, text: task, attachments: [], startUrl: options.url, agentMode: mode }));
}

/** `replay <task_id>`: runs a recorded task again (Run again), in its own session. */
async function replay(taskId: string, options: CommonOptions): Promise<void> {
  const system = await startSystem(quietConfig(options), { recover: false });
  const task = await system.store.getTask(taskId);
  if (!task) throw new Error(`There is no task ${taskId} in ${system.config.dataDir}.`);
  const steps = await system.store.listSteps(taskId);
  await follow(system, task.session_id, () => system.chat.runAgain(task, steps));
}

/** `mcp`: one MCP client on stdin and stdout, until it closes them; the tasks it left are stopped. */
async function mcp(options: CommonOptions): Promise<void> {
  const cfg = quietConfig(options);
  // On a database it shares with a server, the tasks it would find active are that server's, not a dead process's.
  const system = await startSystem(cfg, { recover: !cfg.databaseUrl });
  const server = createMcpServer(system);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    await system.runtime.shutdown("the MCP client left");
    await system.close();
    process.exit(0);
  };
  process.stdin.once("end", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  await server.connect(new StdioServerTransport());
}

/** `export <task_id>`: the task's trajectory or Playwright script on stdout; read only, so beside a running server too. */
async function exportCommand(taskId: string, options: CommonOptions & { format?: string }): Promise<void> {
  const cfg = quietConfig(options);
  const parsed = exportQuerySchema.safeParse({ format: options.format });
  if (!parsed.success) throw new Error(`--format must be json or playwright, not ${options.format}.`);
  // Its steps are rows only: no blob store is opened, whose start would tidy a running server's spool.
  const store = await Store.open(cfg.dataDir, undefined, cfg.databaseUrl ?? null, null);
  try {
    const task = await store.getTask(taskId);
    if (!task) throw new Error(`There is no task ${taskId} in ${cfg.dataDir}.`);
    process.stdout.write(exportTask(task, await store.listSteps(taskId), parsed.data.format, cfg.browser.deviceScaleFactor).body);
  } finally {
    await store.close();
  }
}

function quietConfig(options: CommonOptions, overrides: DeepPartial<ConfigInput> = {}): Config {
  return config({ logLevel: process.env.LOG_LEVEL ? undefined : "warn", ...overrides } as DeepPartial<ConfigInput>, options);
}

/** Where a file the task received was saved, for the person to open. */
async function savedAt(system: System, id: string, name: string): Promise<string> {
  const file = await system.store.received.find(id);
  return file ? `↓ ${name} saved to ${file.path}` : `↓ ${name}`;
}

/** Starts a task, prints each step as it comes, and exits 0 only when it completed. */
async function follow(system: System, sessionId: string, start: () => Promise<{ task: { id: string }; done: Promise<Task> }>): Promise<void> {
  let exitCode = 1;
  // Lines go out in the events' order, a file's after its path was looked up; a question's prompt after its line.
  let printed: Promise<void> = Promise.resolve();
  const print = (line: string | Promise<string>) => {
    printed = printed.then(async () => void process.stdout.write(`${await line}\n`));
  };
  // Only what comes after the session's earlier tasks (a replay runs in the original's session).
  const last = await system.store.events.lastId(sessionId);
  const stop = await system.store.events.subscribe(sessionId, last, (event: SessionEvent) => {
    switch (event.type) {
      case "task.started":
        print(`▶ ${event.task.text}`);
        break;
      case "progress.append":
        print(stepLine(event.step));
        break;
      case "task.awaiting_user":
        print(`? ${event.answer}`);
        void printed.then(() => askToContinue(system.runtime.commands, event.task_id));
        break;
      case "approval.requested":
        print(`? ${event.approval.checks.map((c) => c.message).join(" ")}`);
        void printed.then(() => askToApprove(system.runtime.commands, event.task_id, event.approval.id));
        break;
      case "task.file":
        print(event.refused ? `↓ ${event.file.name} not kept: ${event.refused}` : savedAt(system, event.file.id, event.file.name));
        break;
      case "task.completed":
        exitCode = 0;
        print(`✓ ${event.answer}`);
        break;
      case "task.failed":
        print(`✗ ${event.error.code}: ${event.error.message}`);
        break;
      case "task.stopped":
        print(`■ stopped: ${event.reason}`);
        break;
      default:
        break;
    }
  });
  const { task, done } = await start();
  process.once("SIGINT", () => void system.runtime.commands.stop(task.id));
  const ended = await done;
  stop();
  print(summary(ended));
  await printed;
  await system.close();
  process.exit(exitCode);
}

/** A step as it comes: its number, what it did, and what its tokens cost when they cost something known. */
function stepLine(step: ProgressStep): string {
  const cost = step.cost_usd ? formatUsd(step.cost_usd) : null;
  return `  ${step.index}. ${step.text || describeStep(step)}${cost ? `  ${cost}` : ""}`;
}

/** The task's totals once it ended: steps, tokens and their cost, or why the cost is unknown. */
function summary(task: Task): string {
  const { input_tokens: input, output_tokens: output } = task.usage;
  const steps = `${task.current_step_index} step${task.current_step_index === 1 ? "" : "s"}`;
  const tokens = `${input.toLocaleString("en-US")} tokens in, ${output.toLocaleString("en-US")} out`;
  const cost = task.cost_usd === null ? `cost unknown: no price for ${task.model} (MODEL_PRICES_FILE can give one)` : formatUsd(task.cost_usd);
  return `  ${[steps, tokens, cost].join(" · ")}`;
}

/** y approves the flagged step, anything else refuses it; Ctrl-C stops the task. */
async function askToApprove(commands: Pick<TaskCommands, "decide" | "stop">, taskId: string, approvalId: string): Promise<void> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question("  Allow it? [y/N] ");
    void commands.decide(taskId, approvalId, /^y(es)?$/i.test(answer.trim()));
  } catch {
    void commands.stop(taskId);
  } finally {
    rl.close();
  }
}

/** Enter resumes the task; Ctrl-C (which the prompt catches, not SIGINT) stops it. */
async function askToContinue(commands: Pick<TaskCommands, "acknowledge" | "stop">, taskId: string): Promise<void> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    await rl.question("  Press Enter when you have done it… ");
    void commands.acknowledge(taskId);
  } catch {
    void commands.stop(taskId);
  } finally {
    rl.close();
  }
}

const program = new Command()
  .name("easyagentcu")
  .description("A computer-use agent: a chat that drives a real browser.")
  .option("--data-dir <dir>", "where the database and frames live (env DATA_DIR, default ./data)")
  .option("--computer <kind>", "browser (a Chromium it launches) or desktop (a virtual X desktop, or DESKTOP_DISPLAY); env COMPUTER")
  .option("--cdp-url <url>", "drive a running browser over CDP instead of launching one, e.g. http://127.0.0.1:9222 (env CDP_URL)")
  .option("--target <id>", "with --cdp-url or --attach-chrome: the DevTools target id of the page to drive; its first page by default (env CDP_TARGET_ID)")
  .option(
    "--attach-chrome [profile_dir]",
    "drive the Chrome you are running, once you turn on its remote debugging at chrome://inspect/#remote-debugging; found by the DevToolsActivePort of its profile folder, Chrome's default one unless given (env ATTACH_CHROME, CHROME_PROFILE_DIR)",
  );

program
  .command("serve")
  .description("serve the API and the web UI")
  .option("--host <host>", "interface to listen on (env HOST, default 127.0.0.1)")
  .option("--port <port>", "port to listen on (env PORT, default 8000)")
  .action((options: { host?: string; port?: string }) => serve({ ...program.opts<CommonOptions>(), ...options }));

program
  .command("run")
  .description("run one task in the terminal; exits 0 only when it completed")
  .argument("<task>", "what the agent should do")
  .option("--url <url>", "open this URL before the first step")
  .option("--mode <mode>", "actions (a planner's screen actions), dom or hybrid (the browser tool agent); env AGENT_MODE")
  .action((task: string, options: { url?: string; mode?: string }) => run(task, { ...program.opts<CommonOptions>(), ...options }));

program
  .command("replay")
  .description("run a completed task again from its recording, asking the model only where an element it acted on is gone")
  .argument("<task_id>", "the task to run again")
  .action((taskId: string) => replay(taskId, program.opts<CommonOptions>()));

program
  .command("mcp")
  .description("serve MCP over stdio for an MCP client (stdout is the protocol's; logs go to stderr)")
  .action(() => mcp(program.opts<CommonOptions>()));

program
  .command("export")
  .description("print a task's trajectory (json) or a Playwright script that does its steps again (playwright)")
  .argument("<task_id>", "the task to export")
  .option("--format <format>", "json or playwright", "json")
  .action((taskId: string, options: { format?: string }) => exportCommand(taskId, { ...program.opts<CommonOptions>(), ...options }));

program
  .command("eval")
  .description("run an evaluation suite (JSON or YAML, docs/evaluation.md) and write DIR/report.json and DIR/report.html")
  .argument("[suite]", "the suite file, e.g. evals/web/suite.yaml")
  .option("--model <provider:name>", "the model the tasks use, e.g. anthropic:claude-sonnet-5 (default: the configured one)")
  .option("--episodes <n>", "how many times each task runs (default 1)")
  .option("--concurrency <n>", "how many tasks run at once (default 2)")
  .option("--out <dir>", "where the report and the run's data dir go (default eval-runs/<suite>-<time>)")
  .option("--tasks <ids>", "only these tasks of the suite, comma-separated")
  .option("--ui <url>", "the address the report's links open (default http://127.0.0.1:PORT, for `serve --data-dir DIR/data`)")
  .option("--compare <reports...>", "print two reports side by side instead: --compare A/report.json B/report.json")
  .action((suite: string | undefined, options: EvalOptions) => {
    const common = program.opts<CommonOptions>();
    return evaluate(suite, { ...options, ...(common.dataDir ? { dataDir: common.dataDir } : {}) }, (overrides) => quietConfig({ ...common, dataDir: undefined }, overrides)).then(() => process.exit(0));
  });

program
  .command("worker")
  .description("run the tasks serve queued on DATABASE_URL's Postgres (TASK_QUEUE=postgres)")
  .option("--slots <n>", "how many tasks it runs at once (default 1)")
  .action((options: { slots?: string }) => {
    const slots = Number(options.slots ?? 1);
    if (!Number.isInteger(slots) || slots < 1) throw new Error("--slots takes a whole number of tasks, 1 or more.");
    const cfg = config({}, program.opts<CommonOptions>());
    if (!cfg.databaseUrl) throw new Error("A worker takes its tasks from the Postgres server of DATABASE_URL; set it, as for serve.");
    return work(cfg, slots);
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
