// Viewers counted across processes on one Postgres: processes' counts, each with its own
// connection, as `serve`s have. One that dies with a viewer open (it says nothing more) stops
// counting once its word is not said again in time; one that lives keeps counting however long;
// a word said again that arrives after the last viewer's going does not bring the viewer back.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPostgres, type Postgres } from "../../test/support/postgres.ts";
import { openDatabase } from "./database.ts";
import { Viewers } from "./viewers.ts";

// The living process renews its word 20 times within its life: a stalled moment does not expire it.
const TIMES = { renewMs: 100, expireMs: 2_000 };
let server: Postgres;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

/** A process's count of viewers on `url`, with its own connection, and how it closes; `late`: how long a word of it takes to be said. */
async function processOn(url: string, late: (payload: string) => number = () => 0) {
  const { db, notices } = await openDatabase(await mkdtemp(path.join(tmpdir(), "easyagentcu-viewers-")), url);
  const say = async (channel: string, payload: string) => {
    await new Promise((resolve) => setTimeout(resolve, late(payload)));
    await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
  };
  const viewers = new Viewers(notices, say, TIMES);
  await viewers.start();
  let closed: Promise<void> | null = null;
  return {
    viewers,
    close() {
      viewers.stop();
      closed ??= (async () => {
        await notices?.close();
        await db.destroy();
      })();
      return closed;
    },
  };
}

const until = async (check: () => boolean, ms = 5_000) => {
  for (const end = Date.now() + ms; !check(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > end) throw new Error("not in time");
  }
};

it("counts another process's viewer while it lives, and stops once it died without a word", async () => {
  const url = await server.database();
  const [serving, dying, worker] = await Promise.all([processOn(url), processOn(url), processOn(url)]);
  try {
    const told: boolean[] = [];
    worker.viewers.watch("s-live", (watched) => told.push(watched));
    serving.viewers.count("s-live", 1);
    const toldDead: boolean[] = [];
    worker.viewers.watch("s-dead", (watched) => toldDead.push(watched));
    dying.viewers.count("s-dead", 1);
    await until(() => told.at(-1) === true && toldDead.at(-1) === true);
    // Killed: it closes without saying its viewer went.
    await dying.close();
    await until(() => toldDead.at(-1) === false);
    // Twice the word's life later, the living one's viewer still counts.
    await new Promise((resolve) => setTimeout(resolve, 2 * TIMES.expireMs));
    expect(told).toEqual([false, true]);
    expect(toldDead).toEqual([false, true, false]);
  } finally {
    await Promise.all([serving.close(), dying.close(), worker.close()]);
  }
}, 30_000);

it("does not count a viewer again for a word said before its going that arrives after it", async () => {
  const url = await server.database();
  // Its words that say it watches are said again every 100 ms; from a moment on, they take 500 ms to arrive.
  let slow = false;
  const [serving, worker] = await Promise.all([processOn(url, (payload) => (slow && payload.includes('"watched":true') ? 500 : 0)), processOn(url)]);
  try {
    const told: boolean[] = [];
    worker.viewers.watch("s-late", (watched) => told.push(watched));
    serving.viewers.count("s-late", 1);
    await until(() => told.at(-1) === true);
    slow = true;
    // A word said again is on its way when the last viewer goes.
    await new Promise((resolve) => setTimeout(resolve, 150));
    serving.viewers.count("s-late", -1);
    await until(() => told.at(-1) === false);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(told).toEqual([false, true, false]);
  } finally {
    await Promise.all([serving.close(), worker.close()]);
  }
}, 30_000);
