// A real SSE client over fetch for tests: parses `id`, `event` and `data` fields, keeps every
// event in order, and can wait for one. `followInProcess` gets the same events inside the server's
// process, as the CLI does: no viewer, so the session's tasks keep their live view off. `kept` and
// `kinds` read the events that last, as a replay holds them.
import type { SessionEvent } from "../../src/protocol/index.ts";
import type { Store } from "../../src/store/store.ts";

export interface EventStream {
  events: SessionEvent[];
  waitFor(predicate: (event: SessionEvent) => boolean, timeoutMs?: number): Promise<SessionEvent>;
  /** Resolves with the task's terminal event. */
  waitForEnd(taskId: string, timeoutMs?: number): Promise<SessionEvent>;
  /** Resolves with `task.completed`; a task that failed or stopped rejects, saying why. */
  completes(taskId: string, timeoutMs?: number): Promise<Completed>;
  close(): void;
}

type Completed = Extract<SessionEvent, { type: "task.completed" }>;

export async function openStream(baseUrl: string, sessionId: string, lastEventId?: number): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/chat/stream?session_id=${encodeURIComponent(sessionId)}`, {
    headers: lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const { events, add, ...waiting } = collect();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (!data) continue;
          const event = JSON.parse(data) as SessionEvent;
          const id = /^id: ?(.*)$/m.exec(block)?.[1];
          const type = /^event: ?(.*)$/m.exec(block)?.[1];
          if (String(event.id) !== id || event.type !== type) throw new Error(`SSE fields disagree with data: ${block}`);
          add(event);
        }
      }
    } catch {
      // The test closed the stream.
    }
  })();

  return { events, ...waiting, close: () => controller.abort() };
}

export async function followInProcess(store: Store, sessionId: string): Promise<EventStream> {
  const { events, add, ...waiting } = collect();
  const stop = await store.events.subscribe(sessionId, 0, add);
  return { events, ...waiting, close: stop };
}

/** The events a replay holds too: live frames and activity are for the moment, and a replay leaves them out. */
export function kept(events: SessionEvent[]): SessionEvent[] {
  return events.filter((e) => e.type !== "screen.live" && e.type !== "task.activity");
}

/** The types of the kept events, in order. */
export function kinds(events: SessionEvent[]): string[] {
  return kept(events).map((e) => e.type);
}

/** Events as they come, and waits for one. */
function collect() {
  const events: SessionEvent[] = [];
  const waiters = new Set<() => void>();
  const add = (event: SessionEvent) => {
    events.push(event);
    for (const wake of waiters) wake();
  };
  const waitFor = (predicate: (event: SessionEvent) => boolean, timeoutMs = 60_000) =>
    new Promise<SessionEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(predicate);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; saw ${events.map((e) => e.type).join(", ")}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  const waitForEnd = (taskId: string, timeoutMs?: number) =>
    waitFor((e) => "task_id" in e && e.task_id === taskId && ["task.completed", "task.failed", "task.stopped"].includes(e.type), timeoutMs);
  const completes = async (taskId: string, timeoutMs?: number): Promise<Completed> => {
    const end = await waitForEnd(taskId, timeoutMs);
    if (end.type === "task.completed") return end;
    const why = end.type === "task.failed" ? `${end.error.code}: ${end.error.message}` : end.type === "task.stopped" ? end.reason : "";
    throw new Error(`task ${taskId} ended ${end.type} (${why}); saw ${events.map((e) => e.type).join(", ")}`);
  };
  return { events, add, waitFor, waitForEnd, completes };
}
