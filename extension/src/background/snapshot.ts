// The browser's windows, tabs and groups as the server's snapshot (§1 SnapshotStore): the whole of
// it on connect and after changes a tab event cannot say (groups, windows, focus), and a
// `tab_event` for each tab that is created, changes, is activated or is removed.
import type { BrowserSnapshot, ExtensionMessage, SnapshotTab } from "../../../src/protocol/extension.ts";

export function snapshotTab(tab: chrome.tabs.Tab): SnapshotTab | undefined {
  if (tab.id === undefined || tab.id === chrome.tabs.TAB_ID_NONE) return undefined;
  return {
    id: tab.id,
    windowId: tab.windowId,
    ...(tab.groupId !== undefined && tab.groupId !== chrome.tabGroups.TAB_GROUP_ID_NONE ? { groupId: tab.groupId } : {}),
    index: tab.index,
    url: tab.url || tab.pendingUrl || "",
    title: tab.title ?? "",
    active: tab.active,
  };
}

export async function readSnapshot(): Promise<BrowserSnapshot> {
  const [windows, tabs, groups, [active]] = await Promise.all([
    chrome.windows.getAll(),
    chrome.tabs.query({}),
    chrome.tabGroups.query({}).catch(() => [] as chrome.tabGroups.TabGroup[]),
    chrome.tabs.query({ active: true, lastFocusedWindow: true }),
  ]);
  return {
    windows: windows.filter((w) => w.id !== undefined).map((w) => ({ id: w.id!, focused: w.focused })),
    tabs: tabs.map(snapshotTab).filter((t): t is SnapshotTab => t !== undefined),
    groups: groups.map((g) => ({ id: g.id, windowId: g.windowId, title: g.title ?? "", color: g.color })),
    activeTabId: active?.id ?? null,
  };
}

/** Reports changes through `send` until the worker stops. */
export function watchTabs(send: (message: ExtensionMessage) => void): void {
  let syncTimer: ReturnType<typeof setTimeout> | undefined;
  // Group and window changes come in bursts (a new group is created, titled, coloured).
  const fullSync = () => {
    clearTimeout(syncTimer);
    syncTimer = setTimeout(() => void readSnapshot().then((snapshot) => send({ type: "full_state_sync", snapshot }), () => {}), 200);
  };
  const tabEvent = (event: "created" | "updated" | "activated", tab: chrome.tabs.Tab) => {
    const t = snapshotTab(tab);
    if (t) send({ type: "tab_event", event, tab: t });
  };
  const refetch = (event: "updated" | "activated", tabId: number) => void chrome.tabs.get(tabId).then((tab) => tabEvent(event, tab), () => {});

  chrome.tabs.onCreated.addListener((tab) => tabEvent("created", tab));
  chrome.tabs.onUpdated.addListener((_id, change, tab) => {
    if (change.url !== undefined || change.title !== undefined || change.status !== undefined || change.groupId !== undefined || change.pinned !== undefined) tabEvent("updated", tab);
  });
  chrome.tabs.onActivated.addListener(({ tabId }) => refetch("activated", tabId));
  chrome.tabs.onMoved.addListener((tabId) => refetch("updated", tabId));
  chrome.tabs.onAttached.addListener((tabId) => refetch("updated", tabId));
  chrome.tabs.onReplaced.addListener(() => fullSync());
  chrome.tabs.onRemoved.addListener((tabId, { windowId }) => send({ type: "tab_event", event: "removed", tabId, windowId }));
  chrome.tabGroups.onCreated.addListener(fullSync);
  chrome.tabGroups.onUpdated.addListener(fullSync);
  chrome.tabGroups.onRemoved.addListener(fullSync);
  chrome.windows.onCreated.addListener(fullSync);
  chrome.windows.onRemoved.addListener(fullSync);
  chrome.windows.onFocusChanged.addListener(fullSync);
}
