// The person's own Chrome as a computer (seed 004): a task binds to a connected extension, which
// opens the task's tab in an "EasyAgentCU" group (task_start) and attaches its debugger to it; the
// server connects Playwright to that tab through the CDP relay, so every planner, the browser
// tool set and the checked actions work there as in our own Chromium, input going through
// `chrome.debugger` (Input.dispatchMouseEvent, Input.dispatchKeyEvent) without bringing the tab to
// the front. A tab the person closes is confirmed closed (TASK_TAB_CLOSED) and opened again where
// it was; an extension that reconnects (its worker restarted) takes the task up again; the overlay
// in the tab shows who has the screen; the downloads the tab starts come to the task (downloads.ts).
import type { Logger } from "pino";
import { AppError, firstLine } from "../../core/errors.ts";
import type { OverlayState, SnapshotTab } from "../../protocol/index.ts";
import { BrowserComputer } from "../browser/browser-computer.ts";
import type { AttachOptions } from "../browser/browser-options.ts";
import type { NetworkGate, ScreenHolder } from "../computer.ts";
import { ArtifactService } from "./artifacts.ts";
import { CdpRelay } from "./cdp-relay.ts";
import type { ConnectionEvents, ExtensionConnection } from "./connection.ts";
import { ExtensionDownloads } from "./downloads.ts";
import { ExtensionRegistry } from "./registry.ts";
import { ActionScheduler, RETRY_AFTER_MS, type SchedulerTimeouts } from "./scheduler.ts";

/** What the host reports to the runtime: the person's takeover and the overlay's buttons. */
export interface PersonSignals {
  takeover(taskId: string): void;
  overlay(taskId: string, command: "resume" | "stop"): void;
  /** A task's tab changed (title, address): the UI shows it. */
  tab(taskId: string, tab: SnapshotTab): void;
}

const GROUP_TITLE = "EasyAgentCU";
const LOAD_WAIT_MS = 10_000;
/** How long a task waits for its extension to connect again (a worker restart, an update). */
const RECONNECT_WAIT_MS = 15_000;
/** The task tab's overlay for whoever drives it. */
const OVERLAY_OF: Record<ScreenHolder, OverlayState> = { agent: "ongoing", person: "takeover", nobody: "hidden" };

interface TaskTab {
  connection: ExtensionConnection;
  tab: SnapshotTab;
  relay: CdpRelay;
  /** The task is over: nothing is reopened or reattached for it any more. */
  closing: boolean;
  /**
   * Settles once the tab has been given back to Playwright (the extension came back, the tab was
   * opened again) or abandoned; Playwright's new page comes after it, which the computer waits for.
   */
  ready: Promise<void>;
  stopWatching: () => void;
  /** What the tab's overlay was last told: shown again on a tab given back (the extension came back, the tab reopened). */
  overlay: OverlayState;
  /** The downloads the tab starts, whose bytes the extension sends. */
  downloads: ExtensionDownloads;
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
    // Only the extension a task runs in speaks for it.
    const ours = (taskId: string, from: ExtensionConnection) => this.tabs.get(taskId)?.connection === from;
    const events: ConnectionEvents = {
      takeover: (taskId, from) => {
        if (ours(taskId, from)) signals.takeover(taskId);
      },
      overlay: (taskId, command, from) => {
        if (ours(taskId, from)) signals.overlay(taskId, command);
      },
      snapshot: (connection) => this.followTabs(connection),
      download: (message, from) => {
        if (ours(message.taskId, from)) this.tabs.get(message.taskId)?.downloads.hear(message);
      },
    };
    this.registry = new ExtensionRegistry(events, log);
    this.scheduler = new ActionScheduler(timeouts, log, (clientId) => this.registry.get(clientId));
  }

  /**
   * Opens the task's tab in the chosen (or automatically picked) extension's browser. It opens
   * blank: the task's start URL is opened by the hands as in any browser, and loads once.
   */
  async open(taskId: string, clientId: string | null, options: Omit<AttachOptions, "kind" | "onClose" | "handOver" | "lost" | "ready" | "replacements">): Promise<BrowserComputer> {
    // No extension online may be one reconnecting: PLUGIN_OFFLINE is tried once more after a second (seed 004 §5.1).
    await this.registry.waitFor(clientId, RETRY_AFTER_MS);
    const connection = this.registry.bind(taskId, clientId);
    let known: TaskTab | null = null;
    const close = async () => {
      if (!known) return this.registry.unbind(taskId);
      known.closing = true;
      known.stopWatching();
      this.overlay(taskId, "idle");
      await this.scheduler.run(known.connection, taskId, "task_stop", {}).catch(() => undefined);
      await known.relay.close();
      this.tabs.delete(taskId);
      this.registry.unbind(taskId);
    };
    try {
      const tab = await this.startTab(connection, taskId, "about:blank");
      const relay = await CdpRelay.start(connection, taskId, (reason) => this.restore(taskId, (tab) => this.detached(taskId, tab, reason)));
      const mine: TaskTab = {
        connection,
        tab: connection.snapshot.tab(tab.id) ?? tab,
        relay,
        closing: false,
        ready: Promise.resolve(),
        stopWatching: () => undefined,
        overlay: "ongoing",
        downloads: new ExtensionDownloads(taskId, () => mine.connection),
      };
      known = mine;
      this.tabs.set(taskId, known);
      this.watch(taskId, known);
      await relay.show(tab);
      const computer = await BrowserComputer.connect(relay.url, {
        ...options,
        kind: "extension",
        gate: this.gate,
        onClose: close,
        // §2.2: a task suspended for a decision is `hidden`, the person's to look at, not to take over.
        handOver: async (to) => this.overlay(taskId, OVERLAY_OF[to]),
        lost: () => relay.lost,
        ready: () => mine.ready,
        replacements: () => relay.replacements,
        receiveFiles: (listener) => mine.downloads.receive(listener),
      });
      this.overlay(taskId, "ongoing");
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
    return { id: result.tabId, windowId: result.windowId, index: 0, url: result.url, title: result.title ?? "", active: false, ...(result.groupId !== undefined ? { groupId: result.groupId } : {}) };
  }

  /**
   * When the task's extension disconnects, waits for it to come back (its worker restarted, it was
   * updated): the relay goes on through the new connection, the debugger is attached again and
   * Playwright is shown the tab afresh. An extension that stays away ends the task: PLUGIN_OFFLINE.
   */
  private watch(taskId: string, known: TaskTab): void {
    known.stopWatching = known.connection.onClose(() => this.restore(taskId, (mine) => this.reconnect(taskId, mine)));
  }

  /**
   * Gives the task's tab back to Playwright (the extension came back, the tab was opened again);
   * operations wait meanwhile: one sent while the tab is shown afresh would go to the page as
   * Playwright knew it, and be lost with it. A tab that cannot be given back is abandoned, which
   * the operations then report.
   */
  private restore(taskId: string, work: (known: TaskTab) => Promise<void>): void {
    const known = this.tabs.get(taskId);
    if (!known || known.closing) return;
    const before = known.ready;
    const giving = work(known).catch((error: unknown) => known.relay.abandon(error instanceof AppError ? error : new AppError("CDP_UNAVAILABLE", firstLine(error))));
    known.ready = Promise.all([before, giving]).then(() => undefined);
  }

  private async reconnect(taskId: string, known: TaskTab): Promise<void> {
    const again = await this.registry.waitFor(known.connection.info.clientId, RECONNECT_WAIT_MS);
    if (known.closing) return;
    if (!again) {
      known.relay.abandon(new AppError("PLUGIN_OFFLINE", `The extension disconnected during the task and did not come back within ${RECONNECT_WAIT_MS / 1000} s.`, { retryable: true }));
      return;
    }
    this.log.info({ task: taskId }, "the task's extension connected again");
    known.connection = again;
    known.relay.use(again);
    this.watch(taskId, known);
    try {
      await this.scheduler.run(again, taskId, "browser_debugger_attach", { tabId: known.tab.id });
      await this.show(taskId, known, known.tab);
    } catch (error) {
      if (error instanceof AppError && error.code === "TASK_TAB_CLOSED") return this.reopen(taskId, known);
      known.relay.abandon(error instanceof AppError ? error : new AppError("CDP_UNAVAILABLE", firstLine(error)));
    }
  }

  /**
   * The debugger let go of the task's tab. A tab that is gone (TASK_TAB_CLOSED) is opened again
   * where it was; a tab still open had its debugger cancelled by the person, and the task cannot
   * go on there: CDP_UNAVAILABLE.
   */
  private async detached(taskId: string, known: TaskTab, reason: string): Promise<void> {
    try {
      await this.scheduler.run(known.connection, taskId, "browser_wait_for_loaded", { tabId: known.tab.id, timeoutMs: 1_000 });
    } catch (error) {
      if (error instanceof AppError && error.code === "TASK_TAB_CLOSED") return this.reopen(taskId, known);
    }
    if (known.closing || !known.connection.connected) return;
    known.relay.abandon(new AppError("CDP_UNAVAILABLE", `The extension's debugger let go of the task's tab (${reason}), which stays open; the task cannot drive it any more.`));
  }

  private async reopen(taskId: string, known: TaskTab): Promise<void> {
    this.log.info({ task: taskId }, "the task's tab was closed; opening it again");
    try {
      const tab = await this.startTab(known.connection, taskId, known.tab.url);
      if (known.closing) {
        await this.scheduler.run(known.connection, taskId, "task_stop", {}).catch(() => undefined);
        return;
      }
      await this.show(taskId, known, tab);
    } catch (error) {
      known.relay.abandon(error instanceof AppError ? error : new AppError("CDP_UNAVAILABLE", `Could not open the task's tab again: ${firstLine(error)}`));
    }
  }

  private async show(taskId: string, known: TaskTab, tab: SnapshotTab): Promise<void> {
    known.tab = known.connection.snapshot.tab(tab.id) ?? tab;
    await known.relay.show(tab);
    this.overlay(taskId, known.overlay);
  }

  private overlay(taskId: string, state: OverlayState): void {
    const known = this.tabs.get(taskId);
    if (!known) return;
    known.overlay = state;
    known.connection.send({ type: "task_state", taskId, tabId: known.tab.id, state });
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
