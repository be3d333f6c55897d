// The programs this test process has started, read from /proc (Linux): a test can tell whether
// the product launched a browser, or find its renderers, without asking the product.
import { readdirSync, readFileSync } from "node:fs";

export function childPrograms(pid = process.pid): string[] {
  return childPids(pid).flatMap((child) => {
    const stat = read(`/proc/${child}/stat`);
    return stat ? [stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))] : [];
  });
}

/** The pids of the processes `pid` started (that still run). */
export function childPids(pid = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    if (!stat) continue;
    // pid (comm) state ppid …; comm may itself hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === pid) pids.push(Number(entry));
  }
  return pids;
}

/**
 * A running process's arguments; empty once it has gone. Chromium rewrites its helper processes'
 * as one line, so they are split at spaces too.
 */
export function commandLine(pid: number): string[] {
  return (read(`/proc/${pid}/cmdline`) ?? "").split(/[\0 ]/).filter(Boolean);
}

/** The pids of the processes whose arguments include `arg`. */
export function processesWith(arg: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => commandLine(pid).includes(arg));
}

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}
