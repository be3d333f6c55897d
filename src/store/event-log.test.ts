// The session event log: events stored by an older version still replay (fields added since then
// take their defaults), a subscriber that comes before a session's first event misses nothing, and
// a session's viewers are counted.
import { describe, expect, it } from "vitest";
import { DATABASES, useStores } from "../../test/support/stores.ts";

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
