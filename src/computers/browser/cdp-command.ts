// BROWSER_CDP_COMMAND: a browser session made for one task by a command of the operator's (a
// browser service's client, a script that starts a Chromium). It runs through `sh -c` in a process
// group of its own, prints the session's DevTools address as its first line of output, and keeps
// running while the task holds the browser; the group is signalled when the task lets go.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { redactUrl } from "../../core/cdp-endpoints.ts";
import { AppError } from "../../core/errors.ts";
import type { Lease } from "./browser-pool.ts";

/** How long the command's processes have to end after SIGTERM before they are killed. */
const END_GRACE_MS = 5_000;
/** The end of what the command wrote to stderr, told when it fails. */
const STDERR_KEPT = 600;

/** Runs the command for one task; its lease ends the session. */
export async function commandLease(command: string, timeoutMs: number, signal?: AbortSignal): Promise<Lease> {
  const child = spawn("sh", ["-c", command], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
  const failed = (why: string) => {
    // Addresses in what it wrote are told without their secrets, as the address it prints would be.
    const said = stderr.trim().replace(/\b(?:https?|wss?):\/\/\S+/g, (url) => redactUrl(url));
    return new AppError("BROWSER_UNAVAILABLE", `BROWSER_CDP_COMMAND ${why}${said ? `; it wrote: ${said}` : ""}. It must print a browser's DevTools address (http(s):// or ws(s)://) as its first line.`, { retryable: true });
  };
  let line: string;
  try {
    line = await firstLine(child, timeoutMs, failed, signal);
  } catch (error) {
    await end(child);
    throw error;
  }
  if (!/^(https?|wss?):\/\/[^\s/]+\S*$/.test(line)) {
    await end(child);
    // The line is not echoed: it may hold the service's token.
    throw failed(`printed a first line of ${line.length} characters that is not an http(s) or ws(s) address`);
  }
  let ended: Promise<void> | null = null;
  return { url: line, release: () => (ended ??= end(child)) };
}

/** The first line the command prints, once it has printed it; rejects when it exits or takes too long first. */
function firstLine(child: ChildProcess, timeoutMs: number, failed: (why: string) => AppError, signal?: AbortSignal): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(failed(`printed no address within ${Math.round(timeoutMs / 1000)} s (BROWSER_CDP_COMMAND_TIMEOUT_MS)`)), timeoutMs);
    const settle = (outcome: string | Error) => {
      clearTimeout(timer);
      lines.removeAllListeners("line");
      child.removeListener("exit", exited);
      child.removeListener("error", refused);
      signal?.removeEventListener("abort", stopped);
      // What it prints later is read and dropped, so that a full pipe never holds the command up.
      child.stdout!.resume();
      if (typeof outcome === "string") resolve(outcome);
      else reject(outcome);
    };
    const exited = (code: number | null, signal: NodeJS.Signals | null) => settle(failed(`ended (${signal ?? `exit code ${code}`}) before it printed an address`));
    const refused = (error: Error) => settle(failed(`could not be run: ${error.message}`));
    // The task was stopped while the session was being made: it is ended, not waited for.
    const stopped = () => settle(signal?.reason instanceof Error ? signal.reason : new Error("stopped"));
    lines.once("line", (text) => settle(text.trim()));
    child.once("exit", exited);
    child.once("error", refused);
    if (signal?.aborted) stopped();
    else signal?.addEventListener("abort", stopped, { once: true });
  });
}

/**
 * Signals the command's whole group — its browser with it, unless that left the group — and waits
 * for the command to end. The group is signalled even when the command has ended: a script that
 * started its browser in the background and printed the address ends at once.
 */
async function end(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const running = child.exitCode === null && child.signalCode === null;
  const gone = running ? new Promise<void>((resolve) => child.once("exit", () => resolve())) : Promise.resolve();
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Nothing of the group runs any more.
    }
  };
  signal("SIGTERM");
  const late = setTimeout(() => signal("SIGKILL"), END_GRACE_MS);
  await gone;
  clearTimeout(late);
}
