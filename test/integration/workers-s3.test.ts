// A worker and the API share a task's files only through the bucket (issue 38): with S3_* set on
// both, the step screenshots a worker took are served by a `serve` that never ran the task, byte
// for byte as the bucket holds them, and neither process wrote them under its own data dir.
// Postgres from Debian's package and s3rver, both started by the test.
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, type TaskReply } from "../../src/protocol/index.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorkers } from "../support/workers.ts";

const { model, pages, s3, deploy } = useWorkers({ s3: true });

describe("a worker's screenshots", () => {
  it("are served by the API process from the bucket both use", async () => {
    const product = await deploy();
    model.route((r) => planningText(r).includes("Task: press it on a worker"), act("click", { x: 200, y: 130 }, "Pressing"), act("done", { answer: "Pressed." }, "Done"));
    const api = await product.serve();
    const worker = await product.worker();

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
