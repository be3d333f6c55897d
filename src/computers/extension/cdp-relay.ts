// A task's tab in the person's Chrome as a browser Playwright can connect to: a DevTools endpoint
// on loopback whose browser-level commands are answered here (one page, the task's tab) and whose
// page commands and events go through the extension's `chrome.debugger` (cdp_command / cdp_event).
// When the person closes the tab, Playwright sees the page go; when the server opens a new one,
// it sees a new page, which the browser computer follows.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { AppError } from "../../core/errors.ts";
import type { SnapshotTab } from "../../protocol/index.ts";
import type { ExtensionConnection } from "./connection.ts";

interface Command {
  id: number;
  method: string;
  params?: Record<string, unknown>;
  sessionId?: string;
}

/** Commands whose events report what exists already: they wait for the commands before them. */
const REPLAYS_STATE = new Set(["Runtime.enable", "Page.setLifecycleEventsEnabled", "Target.setAutoAttach"]);

/** The id Playwright knows the browser context of every relayed page by. */
const CONTEXT_ID = "easyagentcu-extension";

export class CdpRelay {
  private client: WebSocket | null = null;
  private tab: (SnapshotTab & { targetId: string }) | null = null;
  private autoAttach = false;
  private stopEvents: () => void = () => undefined;
  /** Why the tab cannot be driven any more, once it cannot. */
  private lostWith: AppError | null = null;
  /**
   * Playwright's sessions with the tab — its page's, and one per `newCDPSession` — each mapped to
   * the one debugger session the extension holds, with the session it was opened from (none: the
   * browser's own). Events of the tab go to each.
   */
  private readonly pageSessions = new Map<string, string | undefined>();
  /** Sessions opened by Target.attachToBrowserTarget: they speak for the browser, as the root does. */
  private readonly browserSessions = new Set<string>();
  private sessionCount = 0;
  private shownAfresh = 0;
  private readonly unanswered = new Set<Promise<unknown>>();

  private constructor(
    private readonly server: WebSocketServer,
    private connection: ExtensionConnection,
    private readonly taskId: string,
    /** The endpoint to give `connectOverCDP`. */
    readonly url: string,
    /** Told when the extension's debugger let go of the tab (closed, or cancelled by the person). */
    private readonly onDetached: (reason: string) => void,
  ) {
    server.on("connection", (socket) => this.serve(socket));
    this.use(connection);
  }

  /** Relays through this connection from now on: the extension connected again. */
  use(connection: ExtensionConnection): void {
    this.stopEvents();
    this.connection = connection;
    this.stopEvents = connection.onCdp(this.taskId, (event) => {
      if (event.type === "cdp_detached") {
        this.detach();
        this.onDetached(event.reason);
        return;
      }
      if (event.sessionId) return this.toClient({ method: event.method, params: event.params ?? {}, sessionId: event.sessionId });
      for (const sessionId of this.pageSessions.keys()) this.toClient({ method: event.method, params: event.params ?? {}, sessionId });
    });
  }

  /** How many times Playwright was shown the tab as a new page in place of the one it had. */
  get replacements(): number {
    return this.shownAfresh;
  }

  /** The error the tab was lost with, if it was: Playwright's connection is cut and this says why. */
  get lost(): AppError | null {
    return this.lostWith;
  }

  /** The tab cannot be driven any more: cuts Playwright's connection, so its next operation fails with `error`. */
  abandon(error: AppError): void {
    this.lostWith = error;
    this.client?.terminate();
  }

  static async start(connection: ExtensionConnection, taskId: string, onDetached: (reason: string) => void): Promise<CdpRelay> {
    const secret = randomBytes(16).toString("hex");
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: `/devtools/browser/${secret}` });
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    const { port } = server.address() as AddressInfo;
    return new CdpRelay(server, connection, taskId, `ws://127.0.0.1:${port}/devtools/browser/${secret}`, onDetached);
  }

  /**
   * The task's tab (again, after the first was closed): Playwright sees it as a new page. Its
   * target id is its main frame's id, as in Chrome, which Playwright relies on.
   */
  async show(tab: SnapshotTab): Promise<void> {
    const reply = await this.connection.cdp(this.taskId, undefined, "Page.getFrameTree", {});
    const frameId = (reply.result as { frameTree?: { frame?: { id?: string } } } | undefined)?.frameTree?.frame?.id;
    if (!frameId) throw new AppError("CDP_UNAVAILABLE", `The task's tab did not answer through the extension's debugger: ${reply.error ?? "no frame"}.`, { retryable: true });
    // The debugger may already hold the tab (the extension connected again): with Runtime off, the
    // new page's Runtime.enable reports the tab's execution contexts afresh, which Playwright waits for.
    await this.connection.cdp(this.taskId, undefined, "Runtime.disable", {});
    this.detach();
    this.tab = { ...tab, targetId: frameId };
    if (!this.autoAttach) return;
    this.shownAfresh++;
    this.attachPage(undefined);
  }

  async close(): Promise<void> {
    this.stopEvents();
    for (const socket of this.server.clients) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private targetInfo(): Record<string, unknown> {
    const tab = this.tab!;
    return { targetId: tab.targetId, type: "page", title: tab.title, url: tab.url, attached: true, canAccessOpener: false, browserContextId: CONTEXT_ID };
  }

  /** A new Playwright session with the tab, announced on `parent` (the browser's own when none). */
  private attachPage(parent: string | undefined): string {
    const sessionId = `tab-${this.tab!.targetId}-${++this.sessionCount}`;
    this.pageSessions.set(sessionId, parent);
    this.toClient({ method: "Target.attachedToTarget", params: { sessionId, targetInfo: this.targetInfo(), waitingForDebugger: false }, ...(parent ? { sessionId: parent } : {}) });
    return sessionId;
  }

  private detach(): void {
    if (!this.tab) return;
    for (const [sessionId, parent] of this.pageSessions) {
      this.toClient({ method: "Target.detachedFromTarget", params: { sessionId, targetId: this.tab.targetId }, ...(parent ? { sessionId: parent } : {}) });
    }
    this.pageSessions.clear();
    this.tab = null;
  }

  private serve(socket: WebSocket): void {
    this.client?.terminate();
    this.client = socket;
    socket.on("error", () => socket.terminate());
    socket.on("message", (data) => {
      let command: Command;
      try {
        command = JSON.parse(String(data)) as Command;
      } catch {
        return;
      }
      const session = command.sessionId ? { sessionId: command.sessionId } : {};
      const answering = this.inOrder(command);
      void answering.then(
        (result) => this.toClient({ id: command.id, result, ...session }),
        (error: unknown) => this.toClient({ id: command.id, error: { code: -32000, message: (error as Error).message }, ...session }),
      );
    });
  }

  /**
   * The extension hands its answers back later than Chrome fires events, so a command whose events
   * describe what earlier ones set up (the execution contexts of frames Playwright learns of from
   * Page.getFrameTree) is sent only once those earlier ones have been answered.
   */
  private inOrder(command: Command): Promise<unknown> {
    const answering = REPLAYS_STATE.has(command.method) ? Promise.allSettled([...this.unanswered]).then(() => this.answer(command)) : this.answer(command);
    this.unanswered.add(answering);
    void answering.finally(() => this.unanswered.delete(answering)).catch(() => undefined);
    return answering;
  }

  private async answer(command: Command): Promise<unknown> {
    const { sessionId } = command;
    if (sessionId && !this.browserSessions.has(sessionId)) {
      if (!this.tab) throw new Error("The task's tab is closed.");
      // Playwright's page sessions are the tab's root in chrome.debugger; child sessions keep their ids.
      const reply = await this.connection.cdp(this.taskId, this.pageSessions.has(sessionId) ? undefined : sessionId, command.method, command.params ?? {});
      if (reply.error !== undefined) throw new Error(reply.error);
      return reply.result ?? {};
    }
    switch (command.method) {
      case "Browser.getVersion":
        return { protocolVersion: "1.3", product: "Chrome", revision: "", userAgent: this.connection.info.userAgent, jsVersion: "" };
      case "Target.setAutoAttach":
        // As Chrome does: the targets attach before the command's answer.
        if (!sessionId && !this.autoAttach && this.tab) this.attachPage(undefined);
        if (!sessionId) this.autoAttach = true;
        return {};
      case "Target.attachToBrowserTarget": {
        const browserSession = `browser-${++this.sessionCount}`;
        this.browserSessions.add(browserSession);
        return { sessionId: browserSession };
      }
      case "Target.attachToTarget":
        if (!this.tab || command.params?.targetId !== this.tab.targetId) throw new Error("Only the task's tab can be attached to through the extension.");
        return { sessionId: this.attachPage(sessionId) };
      case "Target.detachFromTarget":
        this.pageSessions.delete(String(command.params?.sessionId));
        this.browserSessions.delete(String(command.params?.sessionId));
        return {};
      case "Target.getTargetInfo":
        return this.tab ? { targetInfo: this.targetInfo() } : { targetInfo: { targetId: "browser", type: "browser", title: "", url: "", attached: true } };
      case "Target.getBrowserContexts":
        return { browserContextIds: [] };
      case "Browser.setDownloadBehavior":
        return {};
      default:
        throw new Error(`${command.method} is not available through the extension: it drives one tab.`);
    }
  }

  private toClient(message: Record<string, unknown>): void {
    if (this.client?.readyState === this.client?.OPEN) this.client?.send(JSON.stringify(message));
  }
}
