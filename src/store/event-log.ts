// The session event log: gives each event the next id of its session, persists it, and only then
// delivers it to live subscribers, one session's events strictly in order — on Postgres, across
// every process that writes them (ids come from the database; each process reads new ones back in
// order when the database says there are some). A subscriber that
// reconnects with the last id it saw gets exactly what it missed, then the live stream — except
// what a later event has replaced: of live frames only each task's latest is kept, and a reply's
// text deltas go once its completion (which holds the whole text) is written. A failed reply
// keeps its deltas: they are all there is of what it had written. Its viewers, the subscribers
// that show the session to a person, are counted across processes (viewers.ts): a task streams its
// live view only while there is one. A step's reasoning is kept in its step's row only, and read
// back from there.
import { sql, type Kysely, type Transaction } from "kysely";
import { nowIso } from "../core/ids.ts";
import type { Redactor } from "../core/redact.ts";
import { agentEventSchema, eventTaskId, type AgentEvent, type SessionEvent } from "../protocol/index.ts";
import { jsonText } from "./flavor.ts";
import type { Notices } from "./database.ts";
import type { Database } from "./schema.ts";
import { Viewers, type ViewerListener } from "./viewers.ts";

export type EventListener = (event: SessionEvent) => void;
export type { ViewerListener };
/** Asked inside an event's write, in its transaction, before the event takes an id: false, and it is not written. */
export type WriteGuard = (trx: Transaction<Database>) => Promise<boolean>;

/** The channel a Postgres store says on which session has a new event (its payload: the session's id). */
const EVENTS_CHANNEL = "easyagentcu_events";

export class EventLog {
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Postgres: each watched session's last event handed to its listeners, and the reads that hand them on, one at a time. */
  private readonly cursors = new Map<string, number>();
  private readonly drains = new Map<string, Promise<void>>();
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly viewers: Viewers;

  constructor(
    private readonly db: Kysely<Database>,
    /** Every event passes it before it is stored or sent: no secret's value, key or URL credentials in either. */
    private readonly redact: Redactor,
    /**
     * Postgres: other processes write events too, so every event, this process's own among them, reaches
     * the listeners by being read back in id order once the database says it is there. SQLite (null): one
     * process writes, and hands each event on as it is written.
     */
    private readonly notices: Notices | null = null,
  ) {
    this.viewers = new Viewers(notices, async (channel, payload) => void (await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db)));
  }

  /** Starts hearing of the events other processes write, and of their viewers (Postgres). */
  async start(): Promise<void> {
    await this.viewers.start();
    await this.notices?.listen(EVENTS_CHANNEL, (sessionId) => {
      if (sessionId !== null) void this.drain(sessionId);
      else for (const watched of this.listeners.keys()) void this.drain(watched);
    });
  }

  /** Stops saying which sessions this process watches (the store closes). */
  stop(): void {
    this.viewers.stop();
  }

  append(sessionId: string, event: AgentEvent): Promise<SessionEvent> {
    return this.chain(sessionId, () => this.write(sessionId, event, async () => true)) as Promise<SessionEvent>;
  }

  /** Appends the event if `guard` allows it, in the event's own write; null when it refused. */
  appendIf(sessionId: string, event: AgentEvent, guard: WriteGuard): Promise<SessionEvent | null> {
    return this.chain(sessionId, () => this.write(sessionId, event, guard));
  }

  /** Runs one session's writes one after another, in the order they were asked for. */
  private chain(sessionId: string, write: () => Promise<SessionEvent | null>): Promise<SessionEvent | null> {
    const previous = this.chains.get(sessionId) ?? Promise.resolve();
    const appended = previous.catch(() => undefined).then(write);
    this.chains.set(sessionId, appended);
    return appended;
  }

  /**
   * Delivers every event after `afterId` (0 for all), then each new one as it is appended.
   * Resolves with a function that ends the subscription. A `viewer` shows the session to a person
   * (an SSE client), so its tasks stream their live view while it stays.
   */
  async subscribe(sessionId: string, afterId: number, listener: EventListener, { viewer = false } = {}): Promise<() => void> {
    let lastDelivered = afterId;
    let buffered: SessionEvent[] | null = [];
    const deliver = (event: SessionEvent) => {
      if (event.id <= lastDelivered) return;
      lastDelivered = event.id;
      listener(event);
    };
    const live: EventListener = (event) => (buffered ? buffered.push(event) : deliver(event));
    const set = this.listeners.get(sessionId) ?? new Set();
    this.listeners.set(sessionId, set);
    set.add(live);
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      set.delete(live);
      if (set.size === 0) {
        this.listeners.delete(sessionId);
        this.cursors.delete(sessionId);
      }
      if (viewer) this.viewers.count(sessionId, -1);
    };
    // Counted at once: the live frame a task sends for it then comes right after the replay.
    if (viewer) this.viewers.count(sessionId, 1);
    if (this.notices && !this.cursors.has(sessionId)) this.cursors.set(sessionId, await this.lastId(sessionId));
    // Events are persisted before they are fanned out, so whatever the buffer did not catch is
    // already in the table.
    let missed: SessionEvent[];
    try {
      missed = await this.since(sessionId, afterId);
    } catch (error) {
      leave();
      throw error;
    }
    for (const event of missed) deliver(event);
    for (const event of buffered) deliver(event);
    buffered = null;
    return leave;
  }

  /** Calls `listener` now, and whenever it changes, with whether the session has a viewer in any process. */
  watchViewers(sessionId: string, listener: ViewerListener): () => void {
    return this.viewers.watch(sessionId, listener);
  }

  async since(sessionId: string, afterId: number): Promise<SessionEvent[]> {
    const rows = await this.db
      .selectFrom("events")
      .select(["seq", "data", "created_at"])
      .where("session_id", "=", sessionId)
      .where("seq", ">", afterId)
      .orderBy("seq")
      .execute();
    // Events written by an older version parse with today's defaults; one that cannot be read
    // at all is skipped rather than ending the stream for the whole session.
    const events = rows.flatMap((row) => {
      const event = agentEventSchema.safeParse(JSON.parse(row.data));
      return event.success ? [{ ...event.data, id: row.seq, session_id: sessionId, at: row.created_at }] : [];
    });
    return this.withThoughts(events);
  }

  /** A step's reasoning, kept once in its step's row (see `kept`), put back into its event. */
  private async withThoughts(events: SessionEvent[]): Promise<SessionEvent[]> {
    const ids = events.flatMap((event) => (event.type === "progress.append" ? [event.step.id] : []));
    const thoughts = new Map<string, string>();
    for (let at = 0; at < ids.length; at += THOUGHTS_AT_ONCE) {
      const rows = await this.db.selectFrom("steps").select(["id", "thought"]).where("id", "in", ids.slice(at, at + THOUGHTS_AT_ONCE)).execute();
      for (const row of rows) thoughts.set(row.id, row.thought);
    }
    return events.map((event) => (event.type === "progress.append" && thoughts.has(event.step.id) ? { ...event, step: { ...event.step, thought: thoughts.get(event.step.id)! } } : event));
  }

  private async write(sessionId: string, unsafe: AgentEvent, guard: WriteGuard): Promise<SessionEvent | null> {
    const event = this.redact(unsafe);
    const at = nowIso();
    const seq = await this.db.transaction().execute(async (trx) => {
      if (!(await guard(trx))) return null;
      // Taking the session's next id locks its counter until this event is written: in every process,
      // one session's events are written one at a time, in the order of their ids.
      const { last } = await trx
        .insertInto("event_seqs")
        .values({ session_id: sessionId, last: 1 })
        .onConflict((oc) => oc.column("session_id").doUpdateSet({ last: sql<number>`event_seqs.last + 1` }))
        .returning("last")
        .executeTakeFirstOrThrow();
      const superseded = trx.deleteFrom("events").where("session_id", "=", sessionId);
      if (event.type === "screen.live" || event.type === "task.activity") {
        // A live frame supersedes the one before, and so does what the agent is doing now, so a
        // replay shows the current screen and activity instead of every one since the task began.
        await superseded.where("task_id", "=", event.task_id).where("type", "=", event.type).execute();
      } else if (event.type === "chat.completed") {
        await superseded.where("type", "=", "chat.delta").where(jsonText(trx, "data", "message_id"), "=", event.message_id).execute();
      }
      await trx.insertInto("events").values({ session_id: sessionId, seq: last, task_id: eventTaskId(event), type: event.type, data: JSON.stringify(kept(event)), created_at: at }).execute();
      if (this.notices) await sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${sessionId})`.execute(trx);
      return last;
    });
    if (seq === null) return null;
    const delivered: SessionEvent = { ...event, id: seq, session_id: sessionId, at };
    // Either way it is with this process's listeners when append resolves.
    if (this.notices) await this.drain(sessionId);
    else for (const listener of this.listeners.get(sessionId) ?? []) listener(delivered);
    return delivered;
  }

  /** The session's last event id, 0 before its first: where a subscriber that wants only what comes next starts. */
  async lastId(sessionId: string): Promise<number> {
    const row = await this.db.selectFrom("event_seqs").select("last").where("session_id", "=", sessionId).executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Hands the session's listeners, in id order, the events written since the last it handed them (Postgres). */
  private drain(sessionId: string): Promise<void> {
    if (!this.listeners.has(sessionId)) {
      this.cursors.delete(sessionId);
      return Promise.resolve();
    }
    const previous = this.drains.get(sessionId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const after = this.cursors.get(sessionId);
      if (after === undefined) return;
      for (const event of await this.since(sessionId, after)) {
        this.cursors.set(sessionId, event.id);
        for (const listener of this.listeners.get(sessionId) ?? []) listener(event);
      }
    });
    // A failed read is tried again at the next event or notice; the ones it missed come then.
    const settled = next.catch(() => undefined);
    this.drains.set(sessionId, settled);
    void settled.then(() => {
      if (this.drains.get(sessionId) === settled) this.drains.delete(sessionId);
    });
    return settled;
  }
}

/** Steps whose reasoning one query reads back: well under SQLite's limit of bound values. */
const THOUGHTS_AT_ONCE = 500;

/**
 * The event as its row keeps it: a step's reasoning, which can be long, is stored once, in the
 * step's own row, and read back from there (`withThoughts`).
 */
function kept(event: AgentEvent): AgentEvent {
  return event.type === "progress.append" ? { ...event, step: { ...event.step, thought: "" } } : event;
}
