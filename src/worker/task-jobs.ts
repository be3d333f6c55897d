// The durable queue of tasks on the Postgres of DATABASE_URL (pg-boss): `serve` puts each task
// it records here instead of running it, and `worker` processes take them, one per slot. A worker
// beats every few seconds while it holds a task; one that stops beating (killed, frozen, cut off)
// loses the task, which goes back to the queue for another worker to take up. A task whose every
// try was lost so goes to a queue of its own, and whichever process takes it from there ends it.
// A worker that lets a task go on purpose while it waits for the person (it shuts down, or held the
// wait long) hands it back as a new job: that uses none of the task's tries.
import type { Logger } from "pino";
import { PgBoss, type Job } from "pg-boss";
import type { QueuedTask } from "../agent/ports.ts";
import { AppError } from "../core/errors.ts";

const QUEUE = "easyagentcu-tasks";
/** The tasks whose last try was lost (pg-boss's dead letter queue of QUEUE). */
const LOST = "easyagentcu-tasks-lost";
/** pg-boss's shortest heartbeat: a killed worker's task is free again this long after its last beat, plus one supervision pass. */
const HEARTBEAT_SECONDS = 10;
const SUPERVISE_SECONDS = 5;
/** How often an idle worker looks for a task when no notice woke it. */
const POLL_SECONDS = 1;
/** Tries of one task in all: a task whose workers keep dying is not taken up forever. */
const RETRY_LIMIT = 3;
/**
 * How long one worker may hold a task; a hold that outlasts it counts as a failed try. Its liveness
 * is the heartbeat: this bounds a task that runs on and on. A wait for the person is handed back
 * well before it (WAIT_HOLD_MS), so a task may wait days, through any number of redeploys.
 */
const EXPIRE_SECONDS = 12 * 3600;
/** How long a worker holds a task waiting for the person before it hands it back to the queue, a fresh hold with the whole of EXPIRE_SECONDS. */
export const WAIT_HOLD_MS = (EXPIRE_SECONDS / 2) * 1000;

/** A worker's hold on one task it took from the queue. */
export interface TaskHold {
  /** The times the task was taken before and lost (0 the first time, and after a hand back). */
  attempt: number;
  /** Aborts when a beat finds the task given to another (this worker was frozen or cut off past its heartbeat). */
  lost: AbortSignal;
  /**
   * Gives the task back to the queue without using a try: this job ends and a new one for the task
   * is queued, in one transaction, so the task is never in two jobs nor in none. False when the
   * hold was lost already (the task is another worker's).
   */
  handBack(): Promise<boolean>;
}

export class TaskJobs {
  private constructor(private readonly boss: PgBoss) {}

  static async open(databaseUrl: string, log: Logger): Promise<TaskJobs> {
    // A queue's lost heartbeats are looked for once per monitoring pass (every 60 s by default), not per supervision.
    const boss = new PgBoss({ connectionString: databaseUrl, superviseIntervalSeconds: SUPERVISE_SECONDS, monitorIntervalSeconds: SUPERVISE_SECONDS });
    boss.on("error", (error: unknown) => log.warn({ err: error }, "the task queue had an error"));
    try {
      await boss.start();
      await boss.createQueue(LOST);
      await boss.createQueue(QUEUE, { heartbeatSeconds: HEARTBEAT_SECONDS, retryLimit: RETRY_LIMIT, retryDelay: 0, expireInSeconds: EXPIRE_SECONDS, deadLetter: LOST });
      // A queue an earlier version made has no dead letter queue: creating it again changes nothing.
      await boss.updateQueue(QUEUE, { deadLetter: LOST });
    } catch (error) {
      await boss.stop({ graceful: false }).catch(() => undefined);
      throw new AppError("STORAGE_FAILED", `Could not open the task queue on DATABASE_URL's Postgres: ${error instanceof Error ? error.message : String(error)}.`);
    }
    return new TaskJobs(boss);
  }

  /** Queues a recorded task for a worker; resolves once the queue holds it. */
  async enqueue(job: QueuedTask): Promise<void> {
    await this.boss.send(QUEUE, job);
  }

  /** Takes tasks, at most `slots` at once, and runs `handle` on each while beating for it. */
  async work(slots: number, handle: (job: QueuedTask, hold: TaskHold) => Promise<void>): Promise<void> {
    await this.boss.work<QueuedTask>(QUEUE, { localConcurrency: slots, batchSize: 1, pollingIntervalSeconds: POLL_SECONDS }, async ([job]) => {
      if (job) await handle(job.data, { attempt: job.retryCount, lost: job.signal, handBack: () => this.handBack(job) });
    });
  }

  private async handBack(job: Job<QueuedTask>): Promise<boolean> {
    const transaction = await this.boss.getDb().beginTransaction!();
    try {
      const { db } = transaction;
      // Fenced to this hold: a job another worker holds now is not ended, nor the task queued twice.
      // pg-boss answers with how many jobs it settled (`affected`), which its types leave out.
      const ended = (await this.boss.complete(QUEUE, { id: job.id, retryCount: job.retryCount }, null, { db })) as { affected?: number };
      if (!ended.affected) {
        await transaction.rollback();
        return false;
      }
      await this.boss.send(QUEUE, job.data, { db });
      await transaction.commit();
      return true;
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }

  /**
   * Takes the tasks whose every try was lost and runs `handle` on each with the number of tries it
   * had; several processes may call it, and each lost task goes to one of them.
   */
  async whenLost(handle: (job: QueuedTask, tries: number) => Promise<void>): Promise<void> {
    const options = { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true } as const;
    await this.boss.work<QueuedTask, unknown, typeof options>(LOST, options, async ([job]) => {
      if (job) await handle(job.data, (job.sourceRetryCount ?? RETRY_LIMIT) + 1);
    });
  }

  /** Takes no more tasks; with `graceful`, waits for those under way to end first. */
  async close(graceful: boolean): Promise<void> {
    await this.boss.stop({ graceful });
  }
}
