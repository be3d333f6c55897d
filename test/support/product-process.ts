// `bin/easyagentcu.js` as its own process, for tests and benchmarks: a command run to its end (its
// exit code and what it printed), or a serve or worker with a data dir of its own: its address,
// what it logged, its API with the install token, stopping it as a redeploy does (SIGTERM), kill -9
// of its process group, and freezing it (SIGSTOP) and waking it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { INSTALL_TOKEN_HEADER } from "../../src/protocol/index.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ProductProcess {
  /** A server's address; empty for a worker. */
  url: string;
  /** A server's install token; empty for a worker. */
  token: string;
  dataDir: string;
  /** What it logged (stderr). */
  said(): string;
  /** Sends a task or message; resolves with the task's id. */
  send(body: Record<string, unknown>): Promise<string>;
  api<T>(method: string, route: string, body?: Record<string, unknown>): Promise<{ status: number; json: T }>;
  /** Asks it to stop (SIGTERM), as a redeploy does; resolved once it is gone. */
  stop(): Promise<void>;
  /** kill -9 of it (its browsers run in groups of their own), resolved once it is gone. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP), as a machine that stalls or a process swapped out does: it neither beats nor writes until it wakes. */
  freeze(): void;
  /** Wakes it (SIGCONT) where it was frozen. */
  wake(): void;
}

export interface ProductRun {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `easyagentcu <args>` with `env` over this process's environment, to its end. */
export async function runProduct(args: string[], env: Record<string, string>): Promise<ProductRun> {
  const child = spawn(process.execPath, ["bin/easyagentcu.js", ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, out, err };
}

/**
 * Starts `easyagentcu <args>` with `env` over this process's environment, on `dataDir` (a new one by
 * default); resolves once it says `ready`.
 */
export async function startProductProcess(args: string[], env: Record<string, string>, ready: RegExp, dataDir?: string): Promise<ProductProcess> {
  dataDir ??= await mkdtemp(path.join(tmpdir(), "easyagentcu-process-"));
  const child: ChildProcess = spawn(process.execPath, ["bin/easyagentcu.js", ...args, "--data-dir", dataDir], {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let said = "";
  child.stderr!.on("data", (chunk: Buffer) => (said += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = ready.exec(chunk.toString());
      if (found) resolve(found[1] ?? "");
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}: ${said}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const token = args[0] === "serve" ? (await readFile(path.join(dataDir, "install-token"), "utf8")).trim() : "";
  const headers = { "content-type": "application/json", [INSTALL_TOKEN_HEADER]: token };
  const api = async <T>(method: string, route: string, body?: Record<string, unknown>) => {
    const response = await fetch(`${url}${route}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, json: (await response.json()) as T };
  };
  return {
    url,
    token,
    dataDir,
    said: () => said,
    api,
    async send(body) {
      const { status, json } = await api<{ task_id: string }>("POST", "/api/chat/send", body);
      if (status !== 202) throw new Error(`send answered ${status}: ${JSON.stringify(json)}`);
      return json.task_id;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
    freeze: () => process.kill(-child.pid!, "SIGSTOP"),
    wake: () => process.kill(-child.pid!, "SIGCONT"),
  };
}
