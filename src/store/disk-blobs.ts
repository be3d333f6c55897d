// The blob store in the data directory: each key is a file under it, laid out as seed 000 §8
// (`{DATA_DIR}/sessions/{session}/…`). Writes go through a temporary file and a rename, so a
// reader never sees half an image.
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { AppError } from "../core/errors.ts";
import type { BlobStore, BlobStream } from "./blobs.ts";
import { checkedKey } from "./blob-keys.ts";

export class DiskBlobs implements BlobStore {
  constructor(private readonly dataDir: string) {}

  /** A write the disk refuses (full, or the directory gone wrong) leaves no temporary file and is STORAGE_FAILED. */
  async put(key: string, data: Buffer): Promise<void> {
    const absolute = this.where(key);
    const temporary = `${absolute}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      // The directory is made only when missing: most writes go where one went before.
      await writeFile(temporary, data).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
        await mkdir(path.dirname(absolute), { recursive: true });
        await writeFile(temporary, data);
      });
      await rename(temporary, absolute);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw refused(key, error);
    }
  }

  landing(key: string): string {
    return this.where(key);
  }

  async putFile(key: string, file: string): Promise<void> {
    const absolute = this.where(key);
    if (path.resolve(file) === absolute) return;
    try {
      await mkdir(path.dirname(absolute), { recursive: true });
      await rename(file, absolute);
    } catch (error) {
      throw refused(key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    return readFile(this.where(key)).catch(missing);
  }

  async stream(key: string): Promise<BlobStream | null> {
    // Opened first, so that a missing file is null here rather than an error mid-response.
    const handle = await open(this.where(key), "r").catch(missing);
    if (!handle) return null;
    const { size } = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    const body = Readable.toWeb(createReadStream("", { fd: handle })) as ReadableStream<Uint8Array>;
    return { body, size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.where(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    // The folder the prefix names, or the one it ends in: its files whose keys begin with it.
    const folder = prefix.endsWith("/") || prefix === "" ? prefix : path.posix.dirname(prefix);
    const entries = await readdir(path.join(this.dataDir, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
      .map((entry) => path.relative(this.dataDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }

  async deleteAll(prefix: string): Promise<void> {
    // A prefix that is a folder goes in one removal; any other, key by key.
    if (prefix.endsWith("/")) {
      await rm(path.join(this.dataDir, checkedKey(prefix.slice(0, -1))), { recursive: true, force: true });
      return;
    }
    for (const key of await this.list(prefix)) await this.delete(key);
  }

  where(key: string): string {
    return path.join(this.dataDir, checkedKey(key));
  }

  async close(): Promise<void> {}
}

function missing(error: NodeJS.ErrnoException): null {
  if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
  throw error;
}

function refused(key: string, error: unknown): AppError {
  const why = (error as NodeJS.ErrnoException).code ?? String(error);
  return new AppError("STORAGE_FAILED", `Could not write ${key} in the data directory (${why}); free some space or fix the directory, then run the task again.`, { cause: error });
}
