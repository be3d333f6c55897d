// Who watches which session: the subscribers that show it to a person (an SSE client) in this
// process, and — on Postgres — in every other process on the database, so that a worker streams a
// task's live view only while some `serve` has a viewer of its session. Each process says on one
// channel when its first viewer of a session comes and its last one goes; one that starts watching
// a session asks, and the processes with viewers of it answer. Each process says again every
// `renewMs` which sessions it watches, and another's word not said again within `expireMs` is
// forgotten: a process that died with viewers stops counting for them within 80 s.
import { newId } from "../core/ids.ts";
import type { Notices } from "./database.ts";

export type ViewerListener = (watched: boolean) => void;

const CHANNEL = "easyagentcu_viewers";

/** How often a process says again which sessions it watches, and how long another's word holds without it. */
export interface ViewerTimes {
  renewMs: number;
  expireMs: number;
}

const TIMES: ViewerTimes = { renewMs: 20_000, expireMs: 60_000 };

/**
 * What a process says: whether it watches a session now (`n`: its words counted, since words sent
 * through a pool of connections may arrive out of order), or a question who does.
 */
type Said = { process: string; n: number; session: string; watched: boolean } | { process: string; ask: string };

/** The last word heard from a process about a session. */
interface Heard {
  at: number;
  n: number;
  watched: boolean;
}

export class Viewers {
  private readonly process = newId("proc");
  /** This process's viewers of each session. */
  private readonly local = new Map<string, number>();
  /** What the other processes last said of each session, and when (Date.now()). */
  private readonly remote = new Map<string, Map<string, Heard>>();
  /** The words this process said. */
  private said = 0;
  private readonly listeners = new Map<string, Set<ViewerListener>>();
  private renewal: NodeJS.Timeout | null = null;

  constructor(
    /** Postgres: the other processes. SQLite (null): this process is the only one. */
    private readonly notices: Notices | null,
    private readonly say: (channel: string, payload: string) => Promise<void>,
    private readonly times: ViewerTimes = TIMES,
  ) {}

  async start(): Promise<void> {
    if (!this.notices) return;
    await this.notices.listen(CHANNEL, (payload) => {
      // Some may have been missed: ask again about every session watched here.
      if (payload === null) for (const session of this.listeners.keys()) this.tell({ process: this.process, ask: session });
      else this.heard(JSON.parse(payload) as Said);
    });
    this.renewal = setInterval(() => this.renew(), this.times.renewMs).unref();
  }

  /** Stops saying what this process watches (it closes). */
  stop(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
  }

  /** A viewer of the session comes (1) or goes (-1) in this process. */
  count(session: string, change: 1 | -1): void {
    const before = this.watched(session);
    const count = (this.local.get(session) ?? 0) + change;
    if (count > 0) this.local.set(session, count);
    else this.local.delete(session);
    // Only the first viewer's coming and the last one's going are news to the others.
    if (count === (change > 0 ? 1 : 0)) this.tellWatched(session, count > 0);
    this.changed(session, before);
  }

  /** Calls `listener` now, and whenever it changes, with whether the session has a viewer in any process. */
  watch(session: string, listener: ViewerListener): () => void {
    const set = this.listeners.get(session) ?? new Set();
    if (set.size === 0) this.tell({ process: this.process, ask: session });
    this.listeners.set(session, set);
    set.add(listener);
    listener(this.watched(session));
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(session);
    };
  }

  private watched(session: string): boolean {
    return (this.local.get(session) ?? 0) > 0 || [...(this.remote.get(session)?.values() ?? [])].some((heard) => heard.watched);
  }

  /** Says again what this process watches, and forgets what others have not said again in time. */
  private renew(): void {
    for (const session of this.local.keys()) this.tellWatched(session, true);
    const stale = Date.now() - this.times.expireMs;
    for (const [session, processes] of this.remote) {
      const before = this.watched(session);
      for (const [process, heard] of processes) if (heard.at < stale) processes.delete(process);
      if (processes.size === 0) this.remote.delete(session);
      this.changed(session, before);
    }
  }

  private heard(said: Said): void {
    if (said.process === this.process) return;
    if ("ask" in said) {
      if (this.local.has(said.ask)) this.tellWatched(said.ask, true);
      return;
    }
    const processes = this.remote.get(said.session) ?? new Map<string, Heard>();
    // A word said before the last one heard from that process comes too late to count.
    if ((processes.get(said.process)?.n ?? 0) >= said.n) return;
    const before = this.watched(said.session);
    processes.set(said.process, { at: Date.now(), n: said.n, watched: said.watched });
    this.remote.set(said.session, processes);
    this.changed(said.session, before);
  }

  private changed(session: string, before: boolean): void {
    const now = this.watched(session);
    if (now !== before) for (const listener of this.listeners.get(session) ?? []) listener(now);
  }

  private tellWatched(session: string, watched: boolean): void {
    this.tell({ process: this.process, n: ++this.said, session, watched });
  }

  /** A word lost (the database is unreachable a moment) costs a live view, never a task. */
  private tell(said: Said): void {
    if (this.notices) this.say(CHANNEL, JSON.stringify(said)).catch(() => undefined);
  }
}
