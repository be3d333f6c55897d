// The temporary directories of a Chromium we launch. Playwright makes the browser's profile in the
// temporary directory and deletes it when the browser closes — which a server killed with SIGKILL
// never gets to. So each launch also gets a directory of ours, named after the server's pid, that
// holds Playwright's artifacts and a note of where the profile is; a server that starts removes
// what servers that are no longer running left there.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";

const PREFIX = "easyagentcu-browser-";
const PROFILE_NOTE = "profile";
/** How Playwright names the profile it makes for `launch` (playwright-core's `_prepareToLaunch`). */
const PROFILE_PREFIX = "playwright_chromiumdev_profile-";
/** A browser of a killed server may still be writing to its profile for a moment as it exits. */
const REMOVE = { recursive: true, force: true, maxRetries: 5 } as const;

export class LaunchDir {
  private constructor(
    /** Passed to Playwright as `artifactsDir` (downloads, traces). */
    readonly path: string,
  ) {}

  static async make(): Promise<LaunchDir> {
    return new LaunchDir(await mkdtemp(path.join(tmpdir(), `${PREFIX}${process.pid}-`)));
  }

  /**
   * Notes where the launched browser's profile is: on its command line, which Linux shows in
   * /proc. Elsewhere no note is made, and only a clean close removes the profile.
   */
  async noteProfile(browser: Browser): Promise<void> {
    const session = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = await session.send("SystemInfo.getProcessInfo");
      const pid = processInfo.find((p) => p.type === "browser")?.id;
      const args = (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0");
      const profile = args.find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
      if (profile) await writeFile(path.join(this.path, PROFILE_NOTE), profile);
    } finally {
      await session.detach().catch(() => undefined);
    }
  }

  remove(): Promise<void> {
    return rm(this.path, REMOVE);
  }
}

/** Removes the launch directories (and the profiles they note) of servers that are gone; returns them. */
export async function removeLeftovers(): Promise<string[]> {
  const root = tmpdir();
  const removed: string[] = [];
  for (const name of await readdir(root)) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (!owner || isRunning(Number(owner))) continue;
    const dir = path.join(root, name);
    const profile = await readFile(path.join(dir, PROFILE_NOTE), "utf8").catch(() => null);
    // Whatever the note says, nothing but a profile Playwright made in the temporary directory is removed.
    if (profile && path.dirname(profile) === root && path.basename(profile).startsWith(PROFILE_PREFIX)) {
      await rm(profile, REMOVE);
      removed.push(profile);
    }
    await rm(dir, REMOVE);
    removed.push(dir);
  }
  return removed;
}

/** A pid that answers signal 0 is running (EPERM: running as someone else); a reused pid only delays the removal. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
