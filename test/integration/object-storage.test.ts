// With S3_* settings, a task's files live in the bucket: its step screenshot, the file it
// downloaded and its long page text come back through the API byte for byte as the bucket holds
// them, nothing of them is written under the data dir (only the database is), and deleting the
// chat empties its part of the bucket. The bucket is a real S3-compatible server (s3rver).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArtifactReply, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
const FILES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages/files");
const PREFIX = "tenant-a";
const SESSION = "s-object-storage";

let s3: S3Server;
let app: TestApp;
let bucket: S3Client;

beforeAll(async () => {
  s3 = await startS3Server();
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { s3: { ...s3.settings, prefix: PREFIX }, model: { timeoutMs: 60_000 } } });
  const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey } = s3.settings;
  bucket = new S3Client({ endpoint, region, forcePathStyle, credentials: { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! } });
}, 60_000);
afterAll(async () => {
  bucket?.destroy();
  await app?.close();
  await s3?.stop();
});

/** The bucket's keys under the chat, without the prefix. */
async function keysOf(session: string): Promise<string[]> {
  const listed = await bucket.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: `${PREFIX}/sessions/${session}/` }));
  return (listed.Contents ?? []).map((o) => o.Key!.slice(PREFIX.length + 1)).sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const object = await bucket.send(new GetObjectCommand({ Bucket: s3.settings.bucket, Key: `${PREFIX}/${key}` }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

async function runTask(body: Record<string, unknown>): Promise<TaskReply> {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: SESSION, ...body });
  const events = await openStream(app.url, SESSION, 0);
  await events.waitForEnd(json.task_id, 90_000);
  events.close();
  return (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
}

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const toolAgentFor = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

describe("object storage in an S3-compatible bucket", () => {
  it("keeps a task's step screenshot, downloaded file and artifact in the bucket and serves them back byte for byte", async () => {
    // A task that clicks a download link: its step has a screenshot, and it receives the invoice.
    const download = "get the March invoice into the bucket";
    model.route((r) => planningText(r).includes(`Task: ${download}`), act("click", { x: 200, y: 120 }, "Downloading the invoice"), act("done", { answer: "Downloaded." }));
    const downloaded = await runTask({ text: download, start_url: pages.url("downloads.html") });
    expect(downloaded.task.status).toBe("completed");

    const frameUrl = downloaded.steps[0]!.screenshot!.url;
    const frame = await fetch(`${app.url}${frameUrl}`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get("content-type")).toMatch(/^image\/(jpeg|png)$/);
    const frameBytes = Buffer.from(await frame.arrayBuffer());
    const frameKey = `sessions/${SESSION}/tasks/${downloaded.task.id}/frames/0001.${frame.headers.get("content-type") === "image/png" ? "png" : "jpg"}`;
    expect(frameBytes.length).toBeGreaterThan(1000);
    expect(frameBytes.equals(await objectBytes(frameKey))).toBe(true);

    const invoice = await readFile(path.join(FILES, "invoice-march.pdf"));
    const [file] = downloaded.files;
    expect(file).toMatchObject({ name: "invoice-march.pdf", mime_type: "application/pdf", size: invoice.length });
    const served = await fetch(`${app.url}/api/files/${file!.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("content-disposition")).toBe(`attachment; filename="invoice-march.pdf"; filename*=UTF-8''invoice-march.pdf`);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(invoice)).toBe(true);
    expect((await objectBytes(`sessions/${SESSION}/tasks/${downloaded.task.id}/files/${file!.id}/invoice-march.pdf`)).equals(invoice)).toBe(true);

    // A task whose page text is too long to hand around: it is saved as an artifact.
    const goal = "Read the ledger kept in the bucket";
    model.route(toolAgentFor(goal), calls(["close", { reasoning: "The ledger is long.", taskComplete: true }]));
    const read = await runTask({ text: goal, agent_mode: "dom", start_url: pages.url("ledger.html") });
    expect(read.task.status).toBe("completed");
    const artifactId = /saved as artifact (art_[a-z0-9]+)/.exec(JSON.stringify(model.requests.find(toolAgentFor(goal))!.body.messages[1]))![1]!;
    const { status, json: artifact } = await app.api<ArtifactReply>("GET", `/api/tasks/${read.task.id}/artifacts/${artifactId}`);
    expect(status).toBe(200);
    expect(artifact.text).toContain("Entry 6000: the ship Number 6000");
    expect(artifact.text).toBe((await objectBytes(`sessions/${SESSION}/tasks/${read.task.id}/artifacts/${artifactId}.txt`)).toString("utf8"));

    // The data dir holds the database and the process's own small files, none of the task's.
    const local = await filesUnder(app.dataDir);
    expect(local.filter((f) => !/^easyagentcu\.sqlite(-wal|-shm)?$/.test(f) && !["install-token", "model-settings.json"].includes(f))).toEqual([]);
  });

  it("empties the chat's part of the bucket when the chat is deleted", async () => {
    expect((await keysOf(SESSION)).length).toBeGreaterThanOrEqual(3);
    expect((await app.api("DELETE", `/api/sessions/${SESSION}`)).status).toBeLessThan(300);
    expect(await keysOf(SESSION)).toEqual([]);
  });
});
