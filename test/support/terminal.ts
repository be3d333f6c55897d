// The terminal the desktop tests type into, and the wait for what its shell writes.
import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

/**
 * A terminal at the top-left, where the scripted planners click, running a shell without the
 * machine's startup files: those are the machine's (one that runs pyenv takes a lock that a
 * shell killed with its desktop leaves behind, and every later shell waits a minute on it).
 */
export const TERMINAL = "xterm -geometry 100x24+0+0 -e bash --norc --noprofile";

const POLL_MS = 100;

/**
 * The file's text once `complete` says it is whole (by default: once it ends a line), or what it
 * holds after `capMs` — "" when it is not there — for the assertion that follows to show. A shell
 * on a busy machine may run what was typed into it a while after its window is up.
 */
export async function fileText(file: string, complete: (text: string) => boolean = (text) => text.endsWith("\n"), capMs = 30_000): Promise<string> {
  const deadline = performance.now() + capMs;
  for (;;) {
    const text = await readFile(file, "utf8").catch(() => "");
    if (complete(text) || performance.now() >= deadline) return text;
    await delay(POLL_MS);
  }
}
