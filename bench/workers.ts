// Tasks a minute and send → first frame with 1, 2 and 4 `easyagentcu worker` processes (one slot
// each) behind one `serve` on Postgres (TASK_QUEUE=postgres), side by side with `serve` running
// the same tasks in its own process (on the same Postgres, MAX_CONCURRENT_TASKS=4). Each round
// starts fresh processes on a fresh database and sends BENCH_TASKS tasks (default 8) at once, each a
// click and an answer on form.html with an instant scripted model, each in its own session with its
// stream open (so its live view runs). Tasks a minute: tasks ÷ (last end − first send); first frame:
// from the send to the session's first `screen.live` on the stream, p50 and max. Prints the figures
// with the load average the machine had (it may be shared) and writes bench/results/workers.json.
import os from "node:os";
import type { SessionEvent } from "../src/protocol/index.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { startProductProcess, type ProductProcess } from "../test/support/product-process.ts";
import { act, planningText, startScriptedModel } from "../test/support/scripted-model.ts";
import { openStream } from "../test/support/sse.ts";
import { median, writeResult } from "./measure.ts";

const TASKS = Number(process.env.BENCH_TASKS ?? 8);
const ROUNDS: { name: string; workers: number }[] = [
  { name: "single process", workers: 0 },
  { name: "1 worker", workers: 1 },
  { name: "2 workers", workers: 2 },
  { name: "4 workers", workers: 4 },
];

const pages = await startFixtureServer();
const model = await startScriptedModel();
// Each task clicks once, then answers.
const step = (r: Parameters<typeof planningText>[0]) => (planningText(r).includes("Step 1:") ? act("done", { answer: "Done." }, "Done") : act("click", { x: 200, y: 130 }, "Pressing"));
model.route((r) => planningText(r).includes("Task: bench"), ...Array.from({ length: 10_000 }, () => step));
const postgres = await startPostgres();
const results: Record<string, unknown>[] = [];
try {
  for (const round of ROUNDS) {
    const databaseUrl = await postgres.database();
    const env = {
      DATABASE_URL: databaseUrl,
      MODEL_BASE_URL: model.baseUrl,
      MODEL_NAME: "scripted-vl",
      LOG_LEVEL: "warn",
      ALLOWED_ORIGINS: new URL(pages.url("")).origin,
      ...(round.workers > 0 ? { TASK_QUEUE: "postgres" } : { MAX_CONCURRENT_TASKS: "4" }),
    };
    const processes: ProductProcess[] = [];
    try {
      const api = await startProductProcess(["serve", "--port", "0"], env, /running at (\S+)/);
      processes.push(api);
      for (let i = 0; i < round.workers; i++) processes.push(await startProductProcess(["worker"], env, /taking tasks/));
      const loadBefore = os.loadavg()[0]!;
      const streams = await Promise.all(Array.from({ length: TASKS }, (_, i) => openStream(api.url, `bench-${i}`, 0)));
      const sentAt: number[] = [];
      const firstFrame: number[] = [];
      const start = Date.now();
      const ids = await Promise.all(
        streams.map(async (stream, i) => {
          sentAt[i] = Date.now();
          const id = await api.send({ mode: "task", session_id: `bench-${i}`, text: `bench ${i}`, start_url: pages.url("form.html") });
          void stream.waitFor((e: SessionEvent) => e.type === "screen.live", 300_000).then(() => (firstFrame[i] = Date.now() - sentAt[i]!));
          return id;
        }),
      );
      const ends = await Promise.all(streams.map((stream, i) => stream.waitForEnd(ids[i]!, 300_000)));
      const elapsed = Date.now() - start;
      for (const stream of streams) stream.close();
      const completed = ends.filter((e) => e.type === "task.completed").length;
      const figures = {
        round: round.name,
        tasks: TASKS,
        completed,
        tasksPerMinute: Math.round((TASKS / elapsed) * 60_000 * 10) / 10,
        firstFrameP50Ms: median(firstFrame.filter(Number.isFinite)),
        firstFrameMaxMs: Math.max(...firstFrame.filter(Number.isFinite)),
        loadAverage1m: { before: Math.round(loadBefore * 100) / 100, after: Math.round(os.loadavg()[0]! * 100) / 100 },
      };
      results.push(figures);
      process.stdout.write(`${JSON.stringify(figures)}\n`);
    } finally {
      for (const started of processes) await started.kill();
    }
  }
  process.stdout.write(`written to ${await writeResult("workers", { rounds: results })}\n`);
} finally {
  await postgres.stop();
  await model.close();
  await pages.close();
}
