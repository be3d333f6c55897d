// The authoritative picture of one extension's browser (seed 004 §1 SnapshotStore): windows, tabs,
// groups and the active tab, replaced by `full_state_sync` and kept current by `tab_event`.
import type { BrowserSnapshot, ExtensionMessage, SnapshotTab } from "../../protocol/index.ts";

type TabEvent = Extract<ExtensionMessage, { type: "tab_event" }>;

export class SnapshotStore {
  private state: BrowserSnapshot = { windows: [], tabs: [], groups: [], activeTabId: null };

  get current(): BrowserSnapshot {
    return this.state;
  }

  tab(id: number): SnapshotTab | null {
    return this.state.tabs.find((t) => t.id === id) ?? null;
  }

  replace(snapshot: BrowserSnapshot): void {
    this.state = snapshot;
  }

  apply(event: TabEvent): void {
    const { state } = this;
    if (event.event === "removed") {
      this.state = { ...state, tabs: state.tabs.filter((t) => t.id !== event.tabId), activeTabId: state.activeTabId === event.tabId ? null : state.activeTabId };
      return;
    }
    const { tab } = event;
    const tabs = state.tabs.some((t) => t.id === tab.id) ? state.tabs.map((t) => (t.id === tab.id ? tab : t)) : [...state.tabs, tab];
    // A tab made active in a window deactivates that window's other tabs.
    const settled = tab.active ? tabs.map((t) => (t.windowId === tab.windowId && t.id !== tab.id ? { ...t, active: false } : t)) : tabs;
    this.state = { ...state, tabs: settled, activeTabId: tab.active ? tab.id : state.activeTabId };
  }
}
