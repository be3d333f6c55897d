// The programs this test process has started, read from /proc (Linux): a test can tell whether
// the product launched a browser without asking the product.
import { readdirSync, readFileSync } from "node:fs";

export function childPrograms(pid = process.pid): string[] {
  const names: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid …; comm may itself hold spaces and parentheses.
    const close = stat.lastIndexOf(")");
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    if (ppid === pid) names.push(stat.slice(stat.indexOf("(") + 1, close));
  }
  return names;
}
