// The person's own Chrome as a computer (seed 004): a task binds to a connected extension, which
// opens the task's tab in an "EasyAgentCU" group (task_start) and attaches its debugger to it; the
// server connects Playwright to that tab through the CDP relay, so every planner, the browser
// tool set and the checked actions work there as in our own Chromium, input going through
// `chrome.debugger` (Input.dispatchMouseEvent, Input.dispatchKeyEvent) without bringing the tab to
// the front. A tab the person closes is confirmed closed (TASK_TAB_CLOSED) and opened again where
// it was; the overlay in the tab shows who has the screen.
import type { Logger } from "pino";
import { AppError, firstLine } from "../../core/errors.ts";
import type { OverlayState, SnapshotTab } from "../../protocol/index.ts";
import { BrowserComputer, type AttachOptions } from "../browser/browser-computer.ts";
import type { NetworkGate } from "../computer.ts";
import { ArtifactService } from "./artifacts.ts";
import { CdpRelay } from "./cdp-relay.ts";
import type { ConnectionEvents, ExtensionConnection } from "./connection.ts";
import { ExtensionRegistry } from "./registry.ts";
import { ActionScheduler, type SchedulerTimeouts } from "./scheduler.ts";

/** What the host reports to the runtime: the person's takeover and the overlay's buttons. */
export interface PersonSignals {
  takeover(taskId: string): void;
  overlay(taskId: string, command: "resume" | "stop"): void;
  /** A task's tab changed (title, address): the UI shows it. */
  tab(taskId: string, tab: SnapshotTab): void;
}

const GROUP_TITLE = "EasyAgentCU";
const LOAD_WAIT_MS = 10_000;

interface TaskTab {
  connection: ExtensionConnection;
  tab: SnapshotTab;
}

export class ExtensionHost {
  readonly registry: ExtensionRegistry;
  readonly scheduler: ActionScheduler;
  readonly artifacts = new ArtifactService();
  private readonly tabs = new Map<string, TaskTab>();

  constructor(
    timeouts: SchedulerTimeouts,
    private readonly gate: NetworkGate,
    private readonly signals: PersonSignals,
    private readonly log: Logger,
  ) {
    const events: ConnectionEvents = {
      takeover: (taskId) => signals.takeover(taskId),
      overlay: (taskId, command) => signals.overlay(taskId, command),
      snapshot: (connection) => this.followTabs(connection),
    };
    this.registry = new ExtensionRegistry(events, log);
    this.scheduler = new ActionScheduler(timeouts, log);
  }

  /**
   * Opens the task's tab in the chosen (or automatically picked) extension's browser. It opens
   * blank: the task's start URL is opened by the hands as in any browser, and loads once.
   */
  async open(taskId: string, clientId: string | null, options: Omit<AttachOptions, "kind" | "onClose" | "handOver">): Promise<BrowserComputer> {
    const connection = this.registry.bind(taskId, clientId);
    let relay: CdpRelay | null = null;
    const close = async () => {
      this.overlay(connection, taskId, "idle");
      if (this.tabs.delete(taskId)) await this.scheduler.run(connection, taskId, "task_stop", {}).catch(() => undefined);
      await relay?.close();
      this.registry.unbind(taskId);
    };
    try {
      const tab = await this.startTab(connection, taskId, "about:blank");
      const opened = (relay = await CdpRelay.start(connection, taskId, (reason) => void this.reopen(taskId, opened, reason)));
      await relay.show(tab);
      const computer = await BrowserComputer.connect(relay.url, {
        ...options,
        kind: "extension",
        gate: this.gate,
        onClose: close,
        handOver: async (to) => this.overlay(connection, taskId, to === "person" ? "takeover" : "ongoing"),
      });
      this.overlay(connection, taskId, "ongoing");
      return computer;
    } catch (error) {
      await close();
      throw error instanceof AppError ? error : new AppError("CDP_UNAVAILABLE", `Could not drive the task's tab through the extension: ${firstLine(error)}`, { cause: error });
    }
  }

  close(): void {
    this.registry.close();
  }

  /** task_start, then the debugger on the new tab. */
  private async startTab(connection: ExtensionConnection, taskId: string, url: string): Promise<SnapshotTab> {
    const { result } = await this.scheduler.run(connection, taskId, "task_start", { url, groupTitle: GROUP_TITLE });
    // Driven once it has loaded (§3.2): a page still navigating as Playwright attaches can leave it
    // waiting for a document it was never told about. A page that does not finish loading is driven as it is.
    await this.scheduler.run(connection, taskId, "browser_wait_for_loaded", { tabId: result.tabId, timeoutMs: LOAD_WAIT_MS }).catch(() => undefined);
    await this.scheduler.run(connection, taskId, "browser_debugger_attach", { tabId: result.tabId });
    const tab: SnapshotTab = { id: result.tabId, windowId: result.windowId, index: 0, url: result.url, title: result.title ?? "", active: false, ...(result.groupId !== undefined ? { groupId: result.groupId } : {}) };
    this.tabs.set(taskId, { connection, tab: connection.snapshot.tab(tab.id) ?? tab });
    return tab;
  }

  /**
   * The debugger let go of the task's tab. When the tab is gone (the extension answers
   * TASK_TAB_CLOSED), a new one opens where it was, and the relay shows it as a new page.
   */
  private async reopen(taskId: string, relay: CdpRelay, reason: string): Promise<void> {
    const known = this.tabs.get(taskId);
    if (!known) return;
    const { connection, tab } = known;
    try {
      await this.scheduler.run(connection, taskId, "browser_wait_for_loaded", { tabId: tab.id, timeoutMs: 1_000 });
      this.log.warn({ task: taskId, reason }, "the extension's debugger let go of the task's tab, which is still open");
    } catch (error) {
      if (!(error instanceof AppError && error.code === "TASK_TAB_CLOSED")) return;
      this.log.info({ task: taskId }, "the task's tab was closed; opening it again");
      const again = await this.startTab(connection, taskId, tab.url).catch((failure: unknown) => {
        this.log.warn({ task: taskId, err: failure }, "could not open the task's tab again");
        return null;
      });
      if (!again || !this.tabs.has(taskId)) return;
      await relay.show(again).then(
        () => this.overlay(connection, taskId, "ongoing"),
        (failure: unknown) => this.log.warn({ task: taskId, err: failure }, "the task's new tab did not answer"),
      );
    }
  }

  private overlay(connection: ExtensionConnection, taskId: string, state: OverlayState): void {
    const tabId = this.tabs.get(taskId)?.tab.id;
    if (tabId !== undefined) connection.send({ type: "task_state", taskId, tabId, state });
  }

  /** Keeps each task's tab as the extension reports it, and tells the UI when it changes. */
  private followTabs(connection: ExtensionConnection): void {
    for (const [taskId, known] of this.tabs) {
      if (known.connection !== connection) continue;
      const now = connection.snapshot.tab(known.tab.id);
      if (!now || (now.url === known.tab.url && now.title === known.tab.title)) continue;
      known.tab = now;
      this.signals.tab(taskId, now);
    }
  }
}
