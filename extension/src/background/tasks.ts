// Which tab belongs to which task (§4.7), kept in chrome.storage.session so a restart of the
// worker keeps it, with the overlay state each task tab shows; and the guard every action on a
// task's tab passes: its own tab (INVALID_TASK_TAB), still open (TASK_TAB_CLOSED), not the
// server's own origin (OWN_ORIGIN).
import type { OverlayState } from "../../../src/protocol/extension.ts";
import { isOwnOrigin } from "../shared/settings.ts";
import { ActionError } from "./action-error.ts";

export interface TaskRecord {
  tabId: number;
  overlay: OverlayState;
  /** The attribute the last `browser_dom_index` wrote its click ids into. */
  clickAttr?: string;
}

const KEY = "tasks";
let cache: Promise<Map<string, TaskRecord>> | undefined;
/** The same map once loaded, for the CDP event path, which must not wait (events keep their order). */
let loaded: Map<string, TaskRecord> | undefined;

const load = () =>
  (cache ??= chrome.storage.session.get(KEY).then((stored) => (loaded = new Map(Object.entries((stored[KEY] ?? {}) as Record<string, TaskRecord>)))));

async function save(map: Map<string, TaskRecord>) {
  await chrome.storage.session.set({ [KEY]: Object.fromEntries(map) });
}

export const tasks = {
  async get(taskId: string): Promise<TaskRecord | undefined> {
    return (await load()).get(taskId);
  },
  async set(taskId: string, record: TaskRecord): Promise<void> {
    const map = await load();
    map.set(taskId, record);
    await save(map);
  },
  async update(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    const map = await load();
    const record = map.get(taskId);
    if (!record) return undefined;
    const next = { ...record, ...patch };
    map.set(taskId, next);
    await save(map);
    return next;
  },
  async remove(taskId: string): Promise<void> {
    const map = await load();
    if (map.delete(taskId)) await save(map);
  },
  /** The task whose tab this is, if any. */
  async byTab(tabId: number): Promise<{ taskId: string; record: TaskRecord } | undefined> {
    for (const [taskId, record] of await load()) if (record.tabId === tabId) return { taskId, record };
    return undefined;
  },
  /** Loads the map; the worker awaits this before it listens. */
  async ready(): Promise<void> {
    await load();
  },
  /** The task of a tab, at once (after `ready`). */
  taskOfTab(tabId: number): string | undefined {
    for (const [taskId, record] of loaded ?? []) if (record.tabId === tabId) return taskId;
    return undefined;
  },
  /** A tab was swapped for another (prerendering): the task follows it. */
  async replaceTab(oldTabId: number, newTabId: number): Promise<void> {
    const map = await load();
    let changed = false;
    for (const record of map.values()) if (record.tabId === oldTabId) (record.tabId = newTabId), (changed = true);
    if (changed) await save(map);
  },
};

/**
 * The task's tab, when `tabId` names it, it is open and it is not the server's own page.
 * @example const tab = await taskTab("t1", params.tabId, settings.serverUrl);
 */
export async function taskTab(taskId: string, tabId: number, serverUrl: string): Promise<chrome.tabs.Tab> {
  const record = await tasks.get(taskId);
  if (!record) throw new ActionError("INVALID_TASK_TAB", `Task ${taskId} has no tab in this browser: start it with task_start first.`);
  if (record.tabId !== tabId) throw new ActionError("INVALID_TASK_TAB", `Tab ${tabId} is not task ${taskId}'s tab (that is tab ${record.tabId}); actions run only on the task's own tab.`);
  const tab = await openTab(tabId);
  if (!tab) throw new ActionError("TASK_TAB_CLOSED", `Task ${taskId}'s tab ${tabId} was closed; start the task again with task_start to get a new tab.`);
  refuseOwnOrigin(tab.url || tab.pendingUrl, serverUrl);
  return tab;
}

export async function openTab(tabId: number): Promise<chrome.tabs.Tab | undefined> {
  return chrome.tabs.get(tabId).catch(() => undefined);
}

/** The extension never acts on EasyAgentCU's own pages (§4.3), where the person gives it orders. */
export function refuseOwnOrigin(url: string | undefined, serverUrl: string): void {
  if (isOwnOrigin(url, serverUrl)) {
    throw new ActionError("OWN_ORIGIN", `The tab shows EasyAgentCU itself (${new URL(url!).origin}); the extension never acts on the server's own pages.`);
  }
}
