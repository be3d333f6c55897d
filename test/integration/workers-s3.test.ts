// A worker and the API share a task's files only through the bucket (issue 38): with S3_* set on
// both, the step screenshots a worker took are served by a `serve` that never ran the task, byte
// for byte as the bucket holds them, and neither process wrote them under its own data dir.
// Postgres from Debian's package and s3rver, both started by the test.
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, type TaskReply } from "../../src/protocol/index.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { startProductProcess, type ProductProcess } from "../support/product-process.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let postgres: Postgres;
let s3: S3Server;
const running: ProductProcess[] = [];

beforeAll(async () => {
  [postgres, s3] = await Promise.all([startPostgres(), startS3Server()]);
}, 60_000);

afterAll(async () => {
  for (const process of running) await process.kill();
  await Promise.all([postgres?.stop(), s3?.stop()]);
});

describe("a worker's screenshots", () => {
  it("are served by the API process from the bucket both use", async () => {
    const { bucket, endpoint, region, accessKeyId, secretAccessKey } = s3.settings;
    const env = {
      DATABASE_URL: await postgres.database(),
      TASK_QUEUE: "postgres",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: accessKeyId!,
      S3_SECRET_ACCESS_KEY: secretAccessKey!,
      S3_FORCE_PATH_STYLE: "true",
      MODEL_BASE_URL: model.baseUrl,
      MODEL_NAME: "scripted-vl",
      LOG_LEVEL: "info",
      ALLOWED_ORIGINS: new URL(pages.url("")).origin,
    };
    model.route((r) => planningText(r).includes("Task: press it on a worker"), act("click", { x: 200, y: 130 }, "Pressing"), act("done", { answer: "Pressed." }, "Done"));
    const api = await startProductProcess(["serve", "--port", "0"], env, /running at (\S+)/);
    running.push(api);
    const worker = await startProductProcess(["worker"], env, /taking tasks/);
    running.push(worker);

    const task = await api.send({ mode: "task", session_id: "s-worker-s3", text: "press it on a worker", start_url: pages.url("form.html") });
    const events = await openStream(api.url, "s-worker-s3", 0);
    expect(await events.completes(task, 90_000)).toMatchObject({ answer: "Pressed." });
    events.close();
    expect(worker.said()).toContain(task);

    const { json } = await api.api<TaskReply>("GET", `/api/tasks/${task}`);
    const shots = json.steps.map((s) => s.screenshot).filter((s) => s !== null);
    expect(shots.length).toBeGreaterThan(0);
    for (const shot of shots) {
      const served = await fetch(`${api.url}${shot.url}`, { headers: { [INSTALL_TOKEN_HEADER]: api.token } });
      expect(served.status).toBe(200);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
    const inBucket = await readdir(s3.directory, { recursive: true });
    expect(inBucket.some((name) => name.includes(`tasks/${task}/frames/`))).toBe(true);
    for (const { dataDir } of [api, worker]) expect((await readdir(dataDir, { recursive: true })).filter((name) => name.includes("frames"))).toEqual([]);
  }, 180_000);
});
