// What a frame write costs in each blob store home: the data directory, and an S3-compatible
// server on loopback (s3rver). A frame is 120 KB of incompressible bytes, a 1280×800 JPEG's size;
// each is written under its own key, as step frames are, then read back. Prints figures; asserts nothing.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openBlobs, type BlobStore } from "../src/store/blobs.ts";
import { startS3Server } from "../test/support/s3-server.ts";
import { median, quantile, timed } from "./measure.ts";

const FRAMES = 60;
const FRAME = randomBytes(120 * 1024);

async function measure(name: string, blobs: BlobStore): Promise<void> {
  // The first request opens the connection and warms the client; it is not counted.
  await blobs.put("warm/frame.jpg", FRAME);
  const writes: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const key = `sessions/ses_bench/tasks/task_bench/frames/${String(i + 1).padStart(4, "0")}.jpg`;
    writes.push(await timed(() => blobs.put(key, FRAME)));
    reads.push(await timed(() => blobs.get(key)));
  }
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`${name.padEnd(12)} write median ${ms(median(writes))}, p95 ${ms(quantile(writes, 0.95))}; read median ${ms(median(reads))}, p95 ${ms(quantile(reads, 0.95))}`);
}

const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-bench-blobs-"));
const s3 = await startS3Server();
const disk = await openBlobs(dataDir, null);
const bucket = await openBlobs(dataDir, s3.settings);
try {
  console.log(`EasyAgentCU blob store benchmark: ${FRAMES} frames of ${FRAME.length / 1024} KB each`);
  await measure("data dir", disk);
  await measure("s3rver", bucket);
} finally {
  await Promise.all([disk.close(), bucket.close()]);
  await s3.stop();
  await rm(dataDir, { recursive: true, force: true });
}
