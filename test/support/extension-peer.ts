// The server's side of the extension wire (src/protocol/extension.ts), small and in the test: a
// WebSocket endpoint that checks the token and records what the extension says, the artifact
// upload it posts screenshots and HTML to, and helpers that send an action or a CDP command and
// wait for the answer. It can stop and start again on the same port, as a restarting server does.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { EXTENSION_ARTIFACTS_PATH, EXTENSION_WS_PATH, type ActionName, type ExtensionMessage, type ServerMessage } from "../../src/protocol/extension.ts";

export type ActionResultMessage = Extract<ExtensionMessage, { type: "browser_action_result" }>;

export interface ExtensionPeer {
  /** `http://127.0.0.1:port`: the extension's serverUrl. */
  url: string;
  token: string;
  /** Everything every connection said, in order. */
  messages: ExtensionMessage[];
  artifacts: Map<string, { type: string; body: Buffer }>;
  /** How many connections were opened so far. */
  connections: number;
  send(message: ServerMessage): void;
  /** Resolves with the first message (already received or to come) that `pick` accepts. */
  waitFor<T extends ExtensionMessage>(pick: (m: ExtensionMessage) => m is T, timeoutMs?: number, from?: number): Promise<T>;
  waitFor(pick: (m: ExtensionMessage) => boolean, timeoutMs?: number, from?: number): Promise<ExtensionMessage>;
  /** Sends a browser_action and waits for its result. */
  action(taskId: string, name: ActionName, params: Record<string, unknown>, id?: string): Promise<ActionResultMessage>;
  /** Sends a cdp_command and waits for its cdp_result. */
  cdp(taskId: string, method: string, params?: unknown, sessionId?: string): Promise<{ result?: unknown; error?: string }>;
  /** Drops every connection and stops listening. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startExtensionPeer(): Promise<ExtensionPeer> {
  const token = randomUUID();
  const messages: ExtensionMessage[] = [];
  const artifacts = new Map<string, { type: string; body: Buffer }>();
  const waiters = new Set<() => void>();
  let socket: WebSocket | undefined;
  let nextCdpId = 1;
  let port = 0;
  let server: Server;
  const wss = new WebSocketServer({ noServer: true });

  const peer: ExtensionPeer = {
    url: "",
    token,
    messages,
    artifacts,
    connections: 0,
    send(message) {
      socket?.send(JSON.stringify(message));
    },
    waitFor(pick: (m: ExtensionMessage) => boolean, timeoutMs = 15_000, from = 0) {
      return new Promise<ExtensionMessage>((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(pick);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the extension never sent the awaited message; it sent: ${messages.slice(from).map((m) => m.type).join(", ")}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async action(taskId, name, params, id = randomUUID()) {
      const from = messages.length;
      peer.send({ type: "browser_action", id, actionId: id, taskId, clientId: "", name, params });
      return peer.waitFor((m): m is ActionResultMessage => m.type === "browser_action_result" && m.id === id, 20_000, from);
    },
    async cdp(taskId, method, params, sessionId) {
      const id = nextCdpId++;
      const from = messages.length;
      peer.send({ type: "cdp_command", id, taskId, method, ...(params !== undefined ? { params } : {}), ...(sessionId ? { sessionId } : {}) });
      const reply = (await peer.waitFor((m) => m.type === "cdp_result" && m.id === id, 15_000, from)) as { result?: unknown; error?: string };
      return { ...("result" in reply ? { result: reply.result } : {}), ...(reply.error !== undefined ? { error: reply.error } : {}) };
    },
    async stop() {
      for (const client of wss.clients) client.terminate();
      socket = undefined;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      server = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://x");
        if (req.method === "POST" && url.pathname === EXTENSION_ARTIFACTS_PATH) {
          if (req.headers["x-easyagentcu-token"] !== token) return void res.writeHead(401).end();
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => {
            const artifactId = `artifact-${artifacts.size + 1}`;
            artifacts.set(artifactId, { type: String(req.headers["content-type"]), body: Buffer.concat(chunks) });
            res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ artifactId }));
          });
          return;
        }
        res.writeHead(404).end();
      });
      server.on("upgrade", (req, sock, head) => {
        const url = new URL(req.url ?? "/", "http://x");
        if (url.pathname !== EXTENSION_WS_PATH || url.searchParams.get("token") !== token) {
          sock.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
          return;
        }
        wss.handleUpgrade(req, sock, head, (ws) => {
          socket = ws;
          peer.connections++;
          ws.on("message", (data) => {
            messages.push(JSON.parse(String(data)) as ExtensionMessage);
            for (const waiter of [...waiters]) waiter();
          });
        });
      });
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
      peer.url = `http://127.0.0.1:${port}`;
    },
  };
  await peer.start();
  return peer;
}
