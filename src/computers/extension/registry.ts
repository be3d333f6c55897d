// The extension registry (seed 004 §1 ExtensionRegistry): the extensions online and what they said
// of themselves, the task each is bound to, and the choice of one for a task — the one asked for,
// else the only one, else the most recently used. A client that connects again under the same id
// replaces its old connection.
import type { WebSocket } from "ws";
import type { Logger } from "pino";
import { AppError } from "../../core/errors.ts";
import { nowIso } from "../../core/ids.ts";
import { extensionMessageSchema, type ExtensionListing } from "../../protocol/index.ts";
import { ExtensionConnection, type ClientInfo, type ConnectionEvents } from "./connection.ts";

/** How long a new connection has to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** Three heartbeats missed. */
const SILENT_MS = 60_000;

export class ExtensionRegistry {
  private readonly clients = new Map<string, ExtensionConnection>();
  private readonly lastUsed = new Map<string, string>();
  private readonly bindings = new Map<string, string>();
  private readonly waiters = new Set<() => void>();
  private readonly watch: NodeJS.Timeout;

  constructor(
    private readonly events: ConnectionEvents,
    private readonly log: Logger,
  ) {
    // An extension heard from in no heartbeat for a while (a sleeping laptop) is gone: its socket
    // may never close by itself.
    this.watch = setInterval(() => {
      for (const client of this.clients.values()) if (Date.now() - client.lastHeard > SILENT_MS) client.terminate();
    }, SILENT_MS / 3);
    this.watch.unref();
  }

  /** Takes a new WebSocket: it becomes a client once it has said hello. */
  accept(socket: WebSocket): void {
    // A broken frame (too large, not UTF-8) is the socket's error, never the server's crash.
    socket.on("error", (error) => this.log.warn({ err: error }, "an extension's socket failed"));
    const timer = setTimeout(() => socket.close(4000, "no hello"), HELLO_TIMEOUT_MS);
    socket.once("message", (data) => {
      clearTimeout(timer);
      let hello;
      try {
        hello = extensionMessageSchema.parse(JSON.parse(String(data)));
      } catch {
        hello = null;
      }
      if (hello?.type !== "hello") {
        socket.close(4001, "the first message must be hello");
        return;
      }
      const info: ClientInfo = { clientId: hello.clientId, name: hello.name, version: hello.version, userAgent: hello.userAgent, connectedAt: nowIso() };
      this.clients.get(info.clientId)?.close();
      const connection = new ExtensionConnection(socket, info, this.events, this.log);
      this.clients.set(info.clientId, connection);
      connection.onClose(() => {
        if (this.clients.get(info.clientId) === connection) this.clients.delete(info.clientId);
      });
      connection.send({ type: "welcome", clientId: info.clientId });
      this.log.info({ client: info.clientId, name: info.name }, "extension connected");
      for (const wake of this.waiters) wake();
    });
  }

  list(): ExtensionListing[] {
    return [...this.clients.values()].map((c) => ({
      ...c.info,
      lastUsedAt: this.lastUsed.get(c.info.clientId) ?? null,
      taskIds: [...this.bindings].filter(([, client]) => client === c.info.clientId).map(([task]) => task),
      tabs: c.snapshot.current.tabs.length,
    }));
  }

  get(clientId: string): ExtensionConnection | null {
    return this.clients.get(clientId) ?? null;
  }

  /** The connection a task is bound to now, if it is online. */
  boundTo(taskId: string): ExtensionConnection | null {
    const clientId = this.bindings.get(taskId);
    return clientId ? this.get(clientId) : null;
  }

  /**
   * Binds a task to the client asked for, else the only one online, else the one used most
   * recently. PLUGIN_OFFLINE when none is online (or not the one asked for).
   */
  bind(taskId: string, clientId?: string | null): ExtensionConnection {
    const chosen = clientId ? this.get(clientId) : this.pick();
    if (!chosen) {
      const which = clientId ? `The extension ${clientId} is not connected` : "No EasyAgentCU extension is connected";
      throw new AppError("PLUGIN_OFFLINE", `${which}: load it in Chrome (extension/dist, unpacked) and give it this server's address and token in its popup.`, {
        retryable: true,
      });
    }
    this.bindings.set(taskId, chosen.info.clientId);
    this.lastUsed.set(chosen.info.clientId, nowIso());
    return chosen;
  }

  unbind(taskId: string): void {
    this.bindings.delete(taskId);
  }

  /**
   * Resolves when a client with this id is online (any client, for null) — at once if one is — or
   * with null after the time.
   */
  async waitFor(clientId: string | null, timeoutMs: number): Promise<ExtensionConnection | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const online = clientId ? this.get(clientId) : this.pick();
      if (online || Date.now() >= deadline) return online;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, deadline - Date.now());
        const waiters = this.waiters;
        waiters.add(done);
        function done(): void {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
      });
    }
  }

  close(): void {
    clearInterval(this.watch);
    for (const client of this.clients.values()) client.close();
  }

  private pick(): ExtensionConnection | null {
    const online = [...this.clients.values()];
    if (online.length <= 1) return online[0] ?? null;
    const used = (c: ExtensionConnection) => this.lastUsed.get(c.info.clientId) ?? "";
    return online.reduce((best, c) => (used(c) > used(best) ? c : best));
  }
}
