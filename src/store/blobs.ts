// The one place the store keeps bytes that are not rows: frame images, attachments, the files tasks
// received and artifacts, each under a key (`sessions/{session}/tasks/{task}/frames/0001.jpg`).
// Two homes implement it: the data directory (disk-blobs.ts, the default) and an S3-compatible
// bucket (s3-blobs.ts, given S3_BUCKET). Keys are always `/`-separated and relative.
import { createHash } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Config } from "../core/config.ts";
import { DiskBlobs } from "./disk-blobs.ts";
import { S3Blobs } from "./s3-blobs.ts";

/** An object's bytes as a stream, with its length when its store says it. */
export interface BlobStream {
  body: ReadableStream<Uint8Array>;
  size: number | null;
}

export interface BlobStore {
  /** Writes the object whole: a reader sees the old one or the new one, never half. STORAGE_FAILED when refused. */
  put(key: string, data: Buffer): Promise<void>;
  /**
   * A local path where a file that becomes `key` is written first (Chromium saves a download to
   * disk); `putFile` takes it in. On disk it is the object's own place, in a bucket a spool file.
   */
  landing(key: string): string;
  /** Takes in the finished file at `file` as the object `key`, streamed, and removes a spool file. */
  putFile(key: string, file: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The object's bytes as a stream, or null when there is none. */
  stream(key: string): Promise<BlobStream | null>;
  /** Removes the object; one already gone is no error. */
  delete(key: string): Promise<void>;
  /** The keys that begin with `prefix`. */
  list(prefix: string): Promise<string[]>;
  /** Removes every object whose key begins with `prefix` (`sessions/{session}/`). */
  deleteAll(prefix: string): Promise<void>;
  /** Where a person finds the object: a file's path, or its `s3://` address. */
  where(key: string): string;
  /** Lets go of what the store holds open (the S3 client, the spool folder). */
  close(): Promise<void>;
}

export type S3Settings = Config["s3"];

/** The blob store the settings choose: a bucket when S3_BUCKET is set, else the data directory. */
export async function openBlobs(dataDir: string, s3: S3Settings | null): Promise<BlobStore> {
  if (!s3?.bucket) return new DiskBlobs(dataDir);
  // Downloads land here before they go to the bucket: outside the data dir, in a folder of its own.
  // The data dir is held by one process (`export` opens no bucket), so what is found there now a
  // killed process left behind.
  const spool = path.join(tmpdir(), `easyagentcu-spool-${createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16)}`);
  await rm(spool, { recursive: true, force: true });
  await mkdir(spool, { recursive: true, mode: 0o700 });
  return new S3Blobs({ ...s3, bucket: s3.bucket }, spool);
}
