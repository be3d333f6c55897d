// The actions that change something — open the task's tab, click, type — are remembered in
// chrome.storage.session, which outlives the worker (not a reload or update of the extension,
// which empties it). Chrome stops a worker that is idle, or busy too long, and the server sends an
// id again once the extension is back: seed 004 §4.1 has ids for idempotency. A repeat that a
// stopped worker finished is answered with its result; one it began and never finished is
// refused, since whether it took effect is not known. The other actions only read, or (closing
// the task's tab) do no harm done twice, and run again.
import type { ActionName, ExtensionMessage } from "../../../../src/protocol/extension.ts";

type Result = Extract<ExtensionMessage, { type: "browser_action_result" }>;

const ACTING: ReadonlySet<string> = new Set<ActionName>(["task_start", "browser_click", "browser_type"]);
const PREFIX = "acted:";
/** The server's repeats come within seconds of a reconnection; a record is kept at least this long. */
const KEEP_MS = 10 * 60_000;
/** Records older than KEEP_MS are looked for at most this often. */
const PRUNE_EVERY_MS = 60_000;
let prunedAt = 0;

interface Acted {
  at: number;
  result?: Result;
}

export function changesSomething(name: string): boolean {
  return ACTING.has(name);
}

/** What an earlier worker left of this id: its result, `begun` if it never finished, or null. */
export async function recall(id: string): Promise<Result | "begun" | null> {
  const key = PREFIX + id;
  const acted = (await chrome.storage.session.get(key))[key] as Acted | undefined;
  if (!acted) return null;
  return acted.result ?? "begun";
}

export async function markBegun(id: string): Promise<void> {
  await chrome.storage.session.set({ [PREFIX + id]: { at: Date.now() } satisfies Acted });
}

/** Keeps the id's result, then, once a minute at most, forgets the records older than KEEP_MS. */
export async function keepResult(id: string, result: Result): Promise<void> {
  await chrome.storage.session.set({ [PREFIX + id]: { at: Date.now(), result } satisfies Acted });
  if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
  prunedAt = Date.now();
  const all = await chrome.storage.session.get(null);
  const stale = Object.entries(all)
    .filter(([key, value]) => key.startsWith(PREFIX) && (value as Acted).at < Date.now() - KEEP_MS)
    .map(([key]) => key);
  if (stale.length > 0) await chrome.storage.session.remove(stale);
}
