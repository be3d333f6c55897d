// The session event log: events stored by an older version still replay (fields added since then
// take their defaults), a subscriber that comes before a session's first event misses nothing, and
// a session's viewers are counted.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type Postgres } from "../../test/support/postgres.ts";
import { DATABASES, useStores } from "../../test/support/stores.ts";
import { Store } from "./store.ts";

describe.each(DATABASES)("EventLog on %s", (database) => {
  const stores = useStores(database);

  it("delivers, in order, every event of a session that had none when the subscriber came", async () => {
    const store = await stores.open();
    try {
      const seen: [number, string][] = [];
      const stop = await store.events.subscribe("s-new", 0, (event) => seen.push([event.id, event.type]));
      await Promise.all([
        store.events.append("s-new", { type: "task.resumed", task_id: "task_1" }),
        store.events.append("s-new", { type: "task.stopped", task_id: "task_1", reason: "r" }),
      ]);
      stop();
      await store.events.append("s-new", { type: "task.resumed", task_id: "task_1" });
      expect(seen).toEqual([[1, "task.resumed"], [2, "task.stopped"]]);
    } finally {
      await store.close();
    }
  });

  it("tells whether a session has a viewer: from the first that comes until the last leaves; other subscribers are none", async () => {
    const store = await stores.open();
    try {
      const told: boolean[] = [];
      const stopWatching = store.events.watchViewers("s-viewed", (watched) => told.push(watched));
      const follower = await store.events.subscribe("s-viewed", 0, () => undefined);
      const first = await store.events.subscribe("s-viewed", 0, () => undefined, { viewer: true });
      const second = await store.events.subscribe("s-viewed", 0, () => undefined, { viewer: true });
      first();
      first();
      second();
      follower();
      stopWatching();
      await store.events.subscribe("s-viewed", 0, () => undefined, { viewer: true });
      expect(told).toEqual([false, true, false]);
    } finally {
      await store.close();
    }
  });

  it("replays events written before a field existed, and skips one it cannot read", async () => {
    const store = await stores.open();
    try {
      const at = "2026-01-01T00:00:00.000Z";
      const oldTask = {
        id: "task_1", session_id: "s", text: "t", start_url: null, status: "running", current_step_index: 0, live_frame: null,
        answer: null, error: null, model: "m", usage: { input_tokens: 0, output_tokens: 0 }, created_at: at, updated_at: at, finished_at: null,
      };
      await store.db
        .insertInto("events")
        .values([
          { session_id: "s", seq: 1, task_id: "task_1", type: "task.started", data: JSON.stringify({ type: "task.started", task_id: "task_1", task: oldTask }), created_at: at },
          { session_id: "s", seq: 2, task_id: "task_1", type: "nonsense", data: JSON.stringify({ type: "nonsense" }), created_at: at },
          { session_id: "s", seq: 3, task_id: "task_1", type: "task.stopped", data: JSON.stringify({ type: "task.stopped", task_id: "task_1", reason: "r" }), created_at: at },
        ])
        .execute();
      const events = await store.events.since("s", 0);
      expect(events.map((e) => [e.id, e.type])).toEqual([[1, "task.started"], [3, "task.stopped"]]);
      expect(events[0]).toMatchObject({ task: { approval: null } });
    } finally {
      await store.close();
    }
  });
});

describe("EventLog shared by processes on one Postgres database", () => {
  let server: Postgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("gives every event of a session its own id and hands each subscriber, in either process, every one once and in order", async () => {
    const url = await server.database();
    const [first, second] = await Promise.all([0, 1].map(async () => Store.open(await mkdtemp(path.join(tmpdir(), "easyagentcu-events-pg-")), undefined, url)));
    try {
      const heard: Record<string, number[]> = { first: [], second: [] };
      const stops = [
        await first!.events.subscribe("s-shared", 0, (event) => heard.first!.push(event.id)),
        await second!.events.subscribe("s-shared", 0, (event) => heard.second!.push(event.id)),
      ];
      // Both processes write at once, as an API process and a worker would.
      const written = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first! : second!).events.append("s-shared", { type: "task.resumed", task_id: `task_${i}` })),
      );
      const ids = written.map((event) => event.id).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      await expect.poll(() => heard.second!.length).toBe(40);
      await expect.poll(() => heard.first!.length).toBe(40);
      expect(heard.first).toEqual(ids);
      expect(heard.second).toEqual(ids);
      for (const stop of stops) stop();

      // A client that reconnects to the other process with the last id it saw gets the rest.
      const rest: number[] = [];
      const stop = await first!.events.subscribe("s-shared", 25, (event) => rest.push(event.id));
      stop();
      expect(rest).toEqual(ids.slice(25));
    } finally {
      await Promise.all([first?.close(), second?.close()]);
    }
  });
});
