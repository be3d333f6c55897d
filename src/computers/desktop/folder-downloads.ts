// Keeps the new files of a virtual desktop's own downloads folder: each name that appears there
// while the task runs is offered to the task (computer.ts IncomingFile), copied once its program
// has stopped writing it, and refused once it grows past the task's cap. Names browsers and other
// programs give a file while they still write it (`.crdownload`, `.part`) are left for the final one.
import { watch, type FSWatcher } from "node:fs";
import { copyFile, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { IncomingFile, SavedFile } from "../computer.ts";

/** How often a file being written is measured, and how long it must keep its size to count as written. */
const STEADY_MS = 300;
/** A file still growing after this long is taken as it is. */
const WRITE_CAP_MS = 30_000;
const PARTIAL = /\.(crdownload|part|partial|download|tmp)$|^\.|~$/i;

export class FolderDownloads {
  private readonly listeners = new Set<(file: IncomingFile) => void>();
  private known: Promise<Set<string>> | null = null;
  private watcher: FSWatcher | null = null;

  constructor(private readonly folder: string) {}

  /** `listener` hears every file that appears from now on; returns a function that stops. */
  receive(listener: (file: IncomingFile) => void): () => void {
    this.listeners.add(listener);
    this.known ??= this.start();
    return () => void this.listeners.delete(listener);
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private async start(): Promise<Set<string>> {
    const known = new Set(await readdir(this.folder).catch(() => []));
    try {
      this.watcher = watch(this.folder, () => void this.scan());
      this.watcher.on("error", () => this.close());
    } catch {
      // A folder that is gone offers nothing; the task goes on without it.
    }
    return known;
  }

  private async scan(): Promise<void> {
    const known = await this.known!;
    for (const name of await readdir(this.folder).catch(() => [])) {
      if (known.has(name) || PARTIAL.test(name)) continue;
      known.add(name);
      const source = path.join(this.folder, name);
      const file: IncomingFile = { name, saveAs: (target, maxBytes) => saveWritten(source, target, maxBytes) };
      for (const listener of this.listeners) listener(file);
    }
  }
}

/** Copies `source` once its size has held for a moment; refused as soon as it is over the cap. */
async function saveWritten(source: string, target: string, maxBytes: number): Promise<SavedFile> {
  const until = Date.now() + WRITE_CAP_MS;
  let last = -1;
  for (;;) {
    const size = await stat(source).then((s) => (s.isFile() ? s.size : null), () => null);
    if (size === null) return { type: "failed", reason: "it was removed, or is not a file" };
    if (size > maxBytes) return { type: "too_large", size };
    if (size === last || Date.now() > until) break;
    last = size;
    await delay(STEADY_MS);
  }
  await copyFile(source, target);
  const { size } = await stat(target);
  if (size <= maxBytes) return { type: "kept", size };
  await rm(target, { force: true });
  return { type: "too_large", size };
}
