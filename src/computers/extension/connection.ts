// One connected extension (seed 004 §1 ExtensionRegistry's client): its WebSocket, who it is, its
// windows and tabs, and the two exchanges it serves — the action catalog (sent here, acked and
// answered there; the scheduler decides when), the CDP relay of its task tabs, and their downloads'
// news and bytes, handed up. Messages that are
// not of the contract are dropped with a log line, never acted on.
import type { WebSocket } from "ws";
import type { Logger } from "pino";
import { extensionMessageSchema, type ExtensionMessage, type ServerMessage } from "../../protocol/index.ts";
import type { DownloadMessage } from "./downloads.ts";
import { SnapshotStore } from "./snapshot.ts";

export interface ClientInfo {
  clientId: string;
  name: string;
  version: string;
  userAgent: string;
  connectedAt: string;
}

/** What a connection reports upwards: the person's takeover and overlay buttons, its snapshot, and its task tabs' downloads. */
export interface ConnectionEvents {
  takeover(taskId: string, from: ExtensionConnection): void;
  overlay(taskId: string, command: "resume" | "stop", from: ExtensionConnection): void;
  snapshot(connection: ExtensionConnection): void;
  download(message: DownloadMessage, from: ExtensionConnection): void;
}

/** A CDP command the extension does not answer in this time fails, rather than holding its caller. */
const CDP_ANSWER_MS = 60_000;

type Reply = Extract<ExtensionMessage, { type: "browser_action_result" }>;
type CdpReply = Extract<ExtensionMessage, { type: "cdp_result" }>;
type CdpEvent = Extract<ExtensionMessage, { type: "cdp_event" | "cdp_detached" }>;

export class ExtensionConnection {
  readonly snapshot = new SnapshotStore();
  private readonly acks = new Map<string, () => void>();
  private readonly replies = new Map<string, (reply: Reply) => void>();
  private readonly cdpReplies = new Map<number, (reply: CdpReply) => void>();
  /** The CDP listeners of each task tab relayed over this connection. */
  private readonly cdpListeners = new Map<string, (event: CdpEvent) => void>();
  private readonly closedListeners = new Set<() => void>();
  private nextCdpId = 1;
  private open = true;
  /** When the extension last sent anything (its heartbeat every 20 s included). */
  lastHeard = Date.now();

  constructor(
    private readonly socket: WebSocket,
    readonly info: ClientInfo,
    private readonly events: ConnectionEvents,
    private readonly log: Logger,
  ) {
    socket.on("message", (data) => this.receive(String(data)));
    socket.on("close", () => {
      this.open = false;
      for (const listener of this.closedListeners) listener();
    });
  }

  get connected(): boolean {
    return this.open;
  }

  send(message: ServerMessage): void {
    if (this.open) this.socket.send(JSON.stringify(message));
  }

  /** Calls `listener` once when the connection closes (at once if it has). */
  onClose(listener: () => void): () => void {
    if (!this.open) {
      listener();
      return () => undefined;
    }
    this.closedListeners.add(listener);
    return () => this.closedListeners.delete(listener);
  }

  /** Waits for the ack and the result of the action with this id; the scheduler times both. */
  expect(id: string, acked: () => void, answered: (reply: Reply) => void): () => void {
    this.acks.set(id, acked);
    this.replies.set(id, answered);
    return () => {
      this.acks.delete(id);
      this.replies.delete(id);
    };
  }

  /** Sends a CDP command to a task's tab (or one of its child sessions) and resolves with its answer. */
  cdp(taskId: string, sessionId: string | undefined, method: string, params: unknown): Promise<CdpReply> {
    const id = this.nextCdpId++;
    return new Promise<CdpReply>((resolve) => {
      if (!this.open) return resolve({ type: "cdp_result", id, error: "The extension is not connected." });
      const answer = (reply: CdpReply) => {
        clearTimeout(timer);
        stopWaiting();
        this.cdpReplies.delete(id);
        resolve(reply);
      };
      const timer = setTimeout(() => answer({ type: "cdp_result", id, error: `The extension did not answer ${method} within ${CDP_ANSWER_MS / 1000} s.` }), CDP_ANSWER_MS);
      const stopWaiting = this.onClose(() => answer({ type: "cdp_result", id, error: "The extension disconnected." }));
      this.cdpReplies.set(id, answer);
      this.send({ type: "cdp_command", id, taskId, ...(sessionId ? { sessionId } : {}), method, params });
    });
  }

  /** Receives the CDP events of a task's tab; returns a function that stops them. */
  onCdp(taskId: string, listener: (event: CdpEvent) => void): () => void {
    this.cdpListeners.set(taskId, listener);
    return () => {
      if (this.cdpListeners.get(taskId) === listener) this.cdpListeners.delete(taskId);
    };
  }

  close(): void {
    this.socket.close();
  }

  /** Drops a connection that has gone silent, without waiting for a closing handshake. */
  terminate(): void {
    this.socket.terminate();
  }

  private receive(text: string): void {
    let parsed;
    try {
      parsed = extensionMessageSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      this.log.warn({ client: this.info.clientId, error: parsed?.error.message ?? "not JSON" }, "dropped a message from the extension that is not of the contract");
      return;
    }
    const message = parsed.data;
    this.lastHeard = Date.now();
    switch (message.type) {
      case "hello":
      case "heartbeat":
        return;
      case "full_state_sync":
        this.snapshot.replace(message.snapshot);
        return this.events.snapshot(this);
      case "tab_event":
        this.snapshot.apply(message);
        return this.events.snapshot(this);
      case "ack":
        return this.acks.get(message.id)?.();
      case "browser_action_result":
        return this.replies.get(message.id)?.(message);
      case "cdp_result":
        return this.cdpReplies.get(message.id)?.(message);
      case "cdp_event":
      case "cdp_detached":
        return this.cdpListeners.get(message.taskId)?.(message);
      case "takeover":
        return this.events.takeover(message.taskId, this);
      case "overlay_command":
        return this.events.overlay(message.taskId, message.command, this);
      case "download_began":
      case "download_data":
      case "download_end":
        return this.events.download(message, this);
    }
  }
}
