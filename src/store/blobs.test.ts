// The blob store's promises, told once and checked against each home: the data directory, and a
// real S3-compatible server (s3rver) with a key prefix. Bytes come back as they went in, whole or
// streamed; a finished local file is taken in; a session's objects go together; other prefixes stay.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type S3Server } from "../../test/support/s3-server.ts";
import { openBlobs, type BlobStore } from "./blobs.ts";

const HOMES = ["disk", "s3"] as const;

describe.each(HOMES)("blobs on %s", (home) => {
  let server: S3Server | null = null;
  let blobs: BlobStore;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), `easyagentcu-blobs-${home}-`));
    if (home === "s3") server = await startS3Server();
    blobs = await openBlobs(dataDir, server ? { ...server.settings, prefix: "team/prod" } : null);
  }, 30_000);
  afterAll(async () => {
    await blobs.close();
    await server?.stop();
  });

  const image = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));

  it("gives back the bytes it was given, whole and streamed, and null for a key it never had", async () => {
    await blobs.put("sessions/ses_a/tasks/t1/frames/0001.jpg", image);
    expect((await blobs.get("sessions/ses_a/tasks/t1/frames/0001.jpg"))?.equals(image)).toBe(true);
    const streamed = await blobs.stream("sessions/ses_a/tasks/t1/frames/0001.jpg");
    expect(streamed?.size).toBe(image.length);
    expect(Buffer.from(await new Response(streamed!.body).arrayBuffer()).equals(image)).toBe(true);
    expect(await blobs.get("sessions/ses_a/tasks/t1/frames/0002.jpg")).toBeNull();
    expect(await blobs.stream("sessions/ses_nobody/x.txt")).toBeNull();
  });

  it("replaces an object written again", async () => {
    await blobs.put("sessions/ses_a/tasks/t1/frames/live.jpg", Buffer.from("first"));
    await blobs.put("sessions/ses_a/tasks/t1/frames/live.jpg", Buffer.from("second"));
    expect((await blobs.get("sessions/ses_a/tasks/t1/frames/live.jpg"))?.toString()).toBe("second");
  });

  it("takes in a finished local file written where it said, and keeps nothing of it in the spool", async () => {
    const key = "sessions/ses_a/tasks/t1/files/file_1/report.pdf";
    const landing = blobs.landing(key);
    await mkdir(path.dirname(landing), { recursive: true });
    await writeFile(landing, image);
    await blobs.putFile(key, landing);
    expect((await blobs.get(key))?.equals(image)).toBe(true);
    // On disk the landing place is the object's own; a spool file is gone once it is in the bucket.
    expect(existsSync(landing)).toBe(home === "disk");
    expect(blobs.where(key)).toBe(home === "disk" ? path.join(dataDir, key) : `s3://easyagentcu/team/prod/${key}`);
  });

  it("lists by prefix and removes a session's objects together, leaving the others", async () => {
    await blobs.put("sessions/ses_b/attachments/msg_1/1-notes.txt", Buffer.from("notes"));
    await blobs.put("sessions/ses_bb/attachments/msg_2/1-other.txt", Buffer.from("other"));
    expect(await blobs.list("sessions/ses_a/")).toEqual([
      "sessions/ses_a/tasks/t1/files/file_1/report.pdf",
      "sessions/ses_a/tasks/t1/frames/0001.jpg",
      "sessions/ses_a/tasks/t1/frames/live.jpg",
    ]);
    expect(await blobs.list("sessions/ses_b")).toEqual(["sessions/ses_b/attachments/msg_1/1-notes.txt", "sessions/ses_bb/attachments/msg_2/1-other.txt"]);

    await blobs.deleteAll("sessions/ses_a/");
    expect(await blobs.list("sessions/ses_a/")).toEqual([]);
    expect(await blobs.get("sessions/ses_a/tasks/t1/frames/0001.jpg")).toBeNull();
    await blobs.delete("sessions/ses_b/attachments/msg_1/1-notes.txt");
    await blobs.delete("sessions/ses_b/attachments/msg_1/1-notes.txt");
    expect(await blobs.list("sessions/")).toEqual(["sessions/ses_bb/attachments/msg_2/1-other.txt"]);
  });

  it("refuses a key that would name a place outside its own", async () => {
    await expect(blobs.put("sessions/../../etc/passwd", Buffer.from("x"))).rejects.toMatchObject({ code: "INTERNAL" });
    expect(() => blobs.landing("/etc/passwd")).toThrow(/not a storage key/);
  });

  it.runIf(home === "s3")("keeps nothing under the data dir", async () => {
    expect(await readdir(dataDir)).toEqual([]);
  });

  it.runIf(home === "s3")("drops at start the spool files a killed process left", async () => {
    const left = blobs.landing("sessions/ses_c/tasks/t1/files/file_9/half.zip");
    await mkdir(path.dirname(left), { recursive: true });
    await writeFile(left, "half a download");
    const again = await openBlobs(dataDir, server!.settings);
    try {
      expect(again.landing("sessions/ses_c/tasks/t1/files/file_9/half.zip")).toBe(left);
      expect(existsSync(left)).toBe(false);
    } finally {
      await again.close();
    }
  });
});

describe("blobs on an unreachable bucket", () => {
  it("fail with STORAGE_FAILED, retryable, and say which settings to check", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-blobs-down-"));
    const blobs = await openBlobs(dataDir, { bucket: "gone", endpoint: "http://127.0.0.1:9", region: "us-east-1", accessKeyId: "k", secretAccessKey: "s", prefix: "", forcePathStyle: true });
    try {
      await expect(blobs.put("sessions/s/x.txt", Buffer.from("x"))).rejects.toMatchObject({ code: "STORAGE_FAILED", retryable: true, message: expect.stringContaining("S3_ENDPOINT") });
    } finally {
      await blobs.close();
    }
  });
});
