// The terminal the desktop tests type into, the folder its shell writes into, and the wait for what it writes.
import { chmod, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

/**
 * A terminal at the top-left, where the scripted planners click, running a shell without the
 * machine's startup files: those are the machine's (one that runs pyenv takes a lock that a
 * shell killed with its desktop leaves behind, and every later shell waits a minute on it).
 */
export const TERMINAL = "xterm -geometry 100x24+0+0 -e bash --norc --noprofile";

const POLL_MS = 100;

/** A fresh folder the desktop's programs may write into: behind the desktop fence they run as a user of their own. */
export async function desktopFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(dir, 0o777);
  return dir;
}

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
