#!/usr/bin/env node
// `easyagentcu serve` runs the server (what `npm start` runs); `easyagentcu run "task"` runs one
// task in the terminal, printing each progress line as it comes, and exits 0 only on success.
import { createInterface } from "node:readline/promises";
import { Command } from "commander";
import type { Runtime } from "../agent/runtime.ts";
import { loadConfig, type Config, type DeepPartial, type ConfigInput } from "../core/config.ts";
import { newId } from "../core/ids.ts";
import type { SessionEvent } from "../protocol/index.ts";
import { listen } from "../server/listen.ts";
import { startSystem, WEB_DIR } from "./system.ts";

interface CommonOptions {
  dataDir?: string;
}

function config(overrides: DeepPartial<ConfigInput>, options: CommonOptions): Config {
  return loadConfig(process.env, { ...overrides, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
}

async function serve(options: CommonOptions & { host?: string; port?: string }): Promise<void> {
  const cfg = config({ ...(options.host ? { host: options.host } : {}), ...(options.port ? { port: Number(options.port) } : {}) }, options);
  const system = await startSystem(cfg, { recover: true });
  const server = await listen({ ...system, webDir: WEB_DIR }, cfg.host, cfg.port);
  system.log.info({ url: server.url, dataDir: cfg.dataDir, model: cfg.model.name }, "EasyAgentCU is listening");
  process.stdout.write(`EasyAgentCU is running at ${server.url}\n`);
  let closing = false;
  const shutdown = async () => {
    // A second Ctrl-C means now, even if a browser hangs while closing.
    if (closing) process.exit(1);
    closing = true;
    await system.runtime.shutdown();
    await server.close();
    await system.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

async function run(task: string, options: CommonOptions & { url?: string }): Promise<void> {
  const cfg = config({ logLevel: process.env.LOG_LEVEL ? undefined : "warn" } as DeepPartial<ConfigInput>, options);
  const system = await startSystem(cfg, { recover: false });
  const sessionId = newId("cli");
  await system.store.ensureSession(sessionId, task);
  let exitCode = 1;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const unsubscribe = await system.store.events.subscribe(sessionId, 0, (event: SessionEvent) => {
    switch (event.type) {
      case "task.started":
        print(`▶ ${event.task.text}`);
        break;
      case "progress.append":
        print(`  ${event.step.index}. ${event.step.text}`);
        break;
      case "task.awaiting_user":
        print(`? ${event.answer}`);
        void askToContinue(system.runtime, event.task_id);
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
  const { task: submitted, done } = await system.runtime.submit({ sessionId, text: task, attachments: [], startUrl: options.url });
  process.once("SIGINT", () => system.runtime.stop(submitted.id));
  await done;
  unsubscribe();
  await system.close();
  process.exit(exitCode);
}

/** Enter resumes the task; Ctrl-C (which the prompt catches, not SIGINT) stops it. */
async function askToContinue(runtime: Pick<Runtime, "acknowledge" | "stop">, taskId: string): Promise<void> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    await rl.question("  Press Enter when you have done it… ");
    runtime.acknowledge(taskId);
  } catch {
    runtime.stop(taskId);
  } finally {
    rl.close();
  }
}

const program = new Command()
  .name("easyagentcu")
  .description("A computer-use agent: a chat that drives a real browser.")
  .option("--data-dir <dir>", "where the database and frames live (env DATA_DIR, default ./data)");

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
  .action((task: string, options: { url?: string }) => run(task, { ...program.opts<CommonOptions>(), ...options }));

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
