// How many tasks this machine runs at once (issue 15; targets in brackets): N = 1, 2, 4, 8, 12
// tasks stepping continuously on form.html with an instant scripted model, each for a window of
// ~10 s; for each N, the steps a second of the slowest and the median task [≥ 10 tasks at ≥ 1
// step/s] and the memory of the server process and its Chromium processes divided by N [≤ 150 MB
// a task] — RSS (which counts the pages Chromium's processes share once per process) and PSS
// (which splits them), at the window's end — and the CPU a step costs in the server and in
// Chromium, which says where a saturated machine's time goes. The scripted model and the fixture
// pages run in the server's process, as in the tests, so their share is in its figures. A fresh app
// for each N, with maxConcurrentTasks raised to the largest N (the default runs 4 and queues the
// rest). Every task has a viewer, its session's stream open, so every live view runs: the most a
// machine is asked to do (with the UI, a person watches the one session they have open; the other
// tasks send no live frames). BENCH_TASKS, BENCH_WINDOW_SECONDS, BENCH_LIVE_FPS (0: no live view)
// and BENCH_WATCHED (how many of the tasks have a viewer) vary the run. Prints the figures and
// writes bench/results/concurrency.json; asserts nothing.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import os from "node:os";
import { promisify } from "node:util";
import { startApp } from "../test/support/app.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { startScriptedModel } from "../test/support/scripted-model.ts";
import { median, writeResult } from "./measure.ts";
import { startSteppingTask } from "./stepping-task.ts";

const COUNTS = (process.env.BENCH_TASKS ?? "1,2,4,8,12").split(",").map(Number);
const WINDOW_S = Number(process.env.BENCH_WINDOW_SECONDS ?? 10);
const MB = 1024 * 1024;
/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;
/** The live view's frames a second (LIVE_FPS); 0 turns it off, to see what it costs. */
const LIVE_FPS = Number(process.env.BENCH_LIVE_FPS ?? 10);
/** How many of each round's tasks have a viewer; all when unset. */
const WATCHED = Number(process.env.BENCH_WATCHED || Infinity);

const pages = await startFixtureServer();
const rounds: Record<string, unknown>[] = [];
try {
  for (const n of COUNTS) {
    const model = await startScriptedModel();
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { liveFps: LIVE_FPS }, limits: { maxSteps: 100_000, maxConcurrentTasks: Math.max(...COUNTS) } } });
    try {
      const idle = await memory();
      const tasks = await Promise.all(Array.from({ length: n }, (_, i) => startSteppingTask(app, model, pages, `tasks-${n}-${i + 1}`, { watched: i < WATCHED })));
      const before = tasks.map((t) => t.steps());
      const cpuBefore = await cpu();
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
      const seconds = (performance.now() - started) / 1000;
      const rates = tasks.map((t, i) => (t.steps() - before[i]!) / seconds);
      const cpuAfter = await cpu();
      const steps = rates.reduce((a, b) => a + b, 0) * seconds;
      const busy = await memory();
      const load = os.loadavg()[0]!;
      await Promise.all(tasks.map((t) => t.stop()));
      const round = {
        tasks: n,
        watched: Math.min(n, WATCHED),
        slowestStepsPerS: tenth(Math.min(...rates)),
        medianStepsPerS: tenth(median(rates)),
        totalStepsPerS: tenth(rates.reduce((a, b) => a + b, 0)),
        cpuMsPerStepServer: Math.round(((cpuAfter.server - cpuBefore.server) * 1000) / steps),
        cpuMsPerStepChromium: Math.round(((cpuAfter.chromium - cpuBefore.chromium) * 1000) / steps),
        mbPerTaskRss: Math.round(busy.rss / n / MB),
        mbPerTaskPss: Math.round(busy.pss / n / MB),
        mbPerTaskAboveIdlePss: Math.round((busy.pss - idle.pss) / n / MB),
        totalMbRss: Math.round(busy.rss / MB),
        totalMbPss: Math.round(busy.pss / MB),
        serverMbPss: Math.round(busy.serverPss / MB),
        idleServerMbPss: Math.round(idle.pss / MB),
        processes: busy.processes,
        load1m: tenth(load),
      };
      rounds.push(round);
      console.log(
        `${String(n).padStart(2)} tasks (${round.watched} watched): ${round.slowestStepsPerS} steps/s the slowest, ${round.medianStepsPerS} the median (${round.totalStepsPerS} in all); ` +
          `${round.mbPerTaskPss} MB a task PSS (${round.mbPerTaskRss} RSS; ${round.mbPerTaskAboveIdlePss} above the idle server), ` +
          `${round.totalMbPss} MB in all of which the server ${round.serverMbPss}, ${round.processes} processes; ` +
          `CPU a step ${round.cpuMsPerStepServer} ms server + ${round.cpuMsPerStepChromium} ms Chromium; load ${round.load1m}`,
      );
    } finally {
      await app.close();
      await model.close();
    }
  }
  // What one more task adds, beside the first's share of the browser's own processes.
  const first = rounds[0]!;
  for (const r of rounds.slice(1)) r.mbPerExtraTaskPss = Math.round(((r.totalMbPss as number) - (first.totalMbPss as number)) / ((r.tasks as number) - (first.tasks as number)));
  const sustained = rounds.filter((r) => (r.slowestStepsPerS as number) >= 1).map((r) => r.tasks as number);
  const figures = { windowSeconds: WINDOW_S, liveFps: LIVE_FPS, watched: Number.isFinite(WATCHED) ? WATCHED : "all", rounds, mostTasksAtOneStepPerS: sustained.length ? Math.max(...sustained) : 0 };
  console.log(`one more task adds (PSS, MB): ${rounds.slice(1).map((r) => `${r.tasks} tasks ${r.mbPerExtraTaskPss}`).join(", ")}`);
  console.log(`most tasks with every one at ≥ 1 step/s: ${figures.mostTasksAtOneStepPerS} of those tried [target ≥ 10, ≤ 150 MB a task]; ${os.cpus().length} CPUs`);
  console.log(`written to ${await writeResult("concurrency", figures)}`);
} finally {
  await pages.close();
}

/** This process and every process it started (Chromium's). */
async function processTree(): Promise<number[]> {
  const { stdout } = await promisify(execFile)("ps", ["-e", "-o", "pid=,ppid="]);
  const children = new Map<number, number[]>();
  for (const line of stdout.trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  for (const pending = [process.pid]; pending.length > 0; ) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** CPU seconds (user + system) this process and its Chromium processes have used so far. */
async function cpu(): Promise<{ server: number; chromium: number }> {
  const used = { server: 0, chromium: 0 };
  for (const pid of await processTree()) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    // The fields after the command's name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS;
    used[pid === process.pid ? "server" : "chromium"] += seconds;
  }
  return used;
}

/** The tree's memory, summed: RSS and PSS in bytes. */
async function memory(): Promise<{ rss: number; pss: number; serverPss: number; processes: number }> {
  const tree = await processTree();
  let rss = 0;
  let pss = 0;
  let serverPss = 0;
  for (const pid of tree) {
    // A process that ended since `ps` counts nothing.
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, "utf8").catch(() => "");
    rss += kb(rollup, "Rss");
    pss += kb(rollup, "Pss");
    if (pid === process.pid) serverPss = kb(rollup, "Pss");
  }
  return { rss, pss, serverPss, processes: tree.length };
}

function kb(rollup: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0) * 1024;
}

function tenth(n: number): number {
  return Math.round(n * 10) / 10;
}
