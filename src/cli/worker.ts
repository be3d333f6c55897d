// `easyagentcu worker`: takes tasks `serve` queued on DATABASE_URL's Postgres (TASK_QUEUE=postgres)
// and runs them, `slots` at once, with the same computers, models and policy as `serve` would.
// What it records (steps, events) reaches every `serve` through the shared store. SIGTERM hands the
// tasks it holds back to the queue, under way or waiting for the person, without using one of their
// tries: another worker (or this one, started again) takes each up from its last completed step. A
// worker that is killed loses its tasks to the others (worker/task-jobs.ts).
import type { Config } from "../core/config.ts";
import { newId } from "../core/ids.ts";
import { isFinished } from "../protocol/index.ts";
import { giveUpLeases, LeasedRecorder, takeLease } from "../store/task-leases.ts";
import { carryOutCommands } from "../worker/task-commands.ts";
import { TaskJobs, WAIT_HOLD_MS } from "../worker/task-jobs.ts";
import { startSystem } from "./system.ts";

export async function work(config: Config, slots: number): Promise<void> {
  // Its own runtime has a place for each slot: a task taken is never kept waiting for another.
  const cfg: Config = { ...config, taskQueue: "postgres", limits: { ...config.limits, maxConcurrentTasks: slots } };
  const system = await startSystem(cfg, { recover: true });
  const { store, runtime, log } = system;
  const jobs = await TaskJobs.open(cfg.databaseUrl!, log).catch(async (error: unknown) => {
    await system.close();
    throw error;
  });
  // The person's commands to the tasks it holds, said by any `serve`.
  await carryOutCommands(
    store,
    (taskId) => runtime.commands.isActive(taskId),
    (taskId, command) => runtime.commands.carryOut(taskId, command),
    (error) => log.warn({ err: error }, "could not carry out a command to a task"),
  );
  const me = newId("worker");
  let closing = false;
  await jobs.work(slots, async (job, { attempt, lost, handBack }) => {
    // Taken before the task is read: a worker that held it before and still runs (frozen, cut off)
    // can add nothing to what this one reads, and stops at its next write or action.
    // Taken as it began to shut down: back to the queue, untouched.
    if (closing) {
      await handBack();
      return;
    }
    const lease = await takeLease(store.db, job.taskId, me);
    const task = await store.getTask(job.taskId);
    // Stopped while it waited in the queue, or deleted with its chat: nothing to run.
    if (!task || isFinished(task.status)) return;
    const steps = await store.listSteps(task.id);
    const beforeId = task.replay_of ?? job.continues;
    const beforeTask = beforeId ? await store.getTask(beforeId) : null;
    const before = beforeTask ? { of: beforeTask, steps: await store.listSteps(beforeTask.id) } : null;
    log.info({ task_id: task.id, attempt }, attempt > 0 ? "taking up a task another worker left" : "running a task");
    // A task it holds waiting for the person answers the person no more once another holds it.
    const letGo = () => runtime.releaseWaiting(task.id);
    lost.addEventListener("abort", letGo, { once: true });
    // A wait held past the job's expiry would count as a failed try: it goes back to the queue first.
    const heldLong = setTimeout(letGo, WAIT_HOLD_MS);
    try {
      const ended = await runtime.take(job, task, steps, before, new LeasedRecorder(store, lease, log));
      // Let go still waiting (this worker shuts down, or held the wait long), or under way as this
      // worker shuts down: another worker takes it up.
      const handing = ended === null || (closing && !isFinished((await store.getTask(task.id))?.status ?? "completed"));
      if (handing && !lost.aborted && (await handBack())) log.info({ task_id: task.id }, "handed a task back to the queue");
    } finally {
      clearTimeout(heldLong);
      lost.removeEventListener("abort", letGo);
    }
  });
  process.stdout.write(`EasyAgentCU worker is taking tasks (${slots} at once)\n`);
  const shutdown = async () => {
    if (closing) process.exit(1);
    closing = true;
    // What its runs would still record is refused from here on; each goes back to the queue as it stops.
    await giveUpLeases(store.db, me);
    runtime.letGoAll();
    await jobs.close(true);
    await system.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}
