// Owns the one WebSocket to the server: connects with the token, says hello and sends the full
// state first, beats every 20 s, and reconnects with backoff (0.5 s doubling to 10 s, reset once
// connected) — at once when the settings change, and from an alarm after the worker slept.
import { EXTENSION_WS_PATH, serverMessageSchema, type ExtensionMessage, type ServerMessage } from "../../../src/protocol/extension.ts";
import { clientId, readSettings, writeStatus, wsUrl, type ConnectionStatus } from "../shared/settings.ts";

const HEARTBEAT_MS = 20_000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 10_000;
/** Messages the person caused (takeover, Resume, Stop) wait this long for a connection. */
const OUTBOX_MAX_AGE_MS = 5 * 60_000;

type Hello = Extract<ExtensionMessage, { type: "hello" }>;

export interface ConnectionHooks {
  /** The rest of the greeting after `hello`: the full state. */
  greeting(): Promise<ExtensionMessage[]>;
  onMessage(message: ServerMessage): void;
}

export interface Connection {
  /** Sends now if connected; otherwise the message is dropped (the next full sync covers it). */
  send(message: ExtensionMessage): void;
  /** Sends now, or as soon as a connection is made. For what the person did. */
  sendSoon(message: ExtensionMessage): void;
  /** Connects unless connected or already trying. */
  ensure(): void;
  /** Drops the socket and connects afresh (the settings changed). */
  restart(): void;
}

export function createConnection(hooks: ConnectionHooks): Connection {
  let socket: WebSocket | undefined;
  let ready = false;
  let pending: ExtensionMessage[] = [];
  let outbox: { message: ExtensionMessage; at: number }[] = [];
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let connecting = false;
  let generation = 0;

  const status = (state: ConnectionStatus["state"], url: string, lastError?: string) =>
    void writeStatus({ state, url, since: Date.now(), ...(lastError ? { lastError } : {}) }).catch(() => {});

  const raw = (message: ExtensionMessage) => socket?.send(JSON.stringify(message));

  function scheduleRetry(url: string, error: string) {
    const delay = Math.min(BACKOFF_FIRST_MS * 2 ** attempt, BACKOFF_MAX_MS);
    attempt++;
    status("offline", url, `${error}; retrying in ${(delay / 1000).toFixed(1)} s`);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
  }

  /** Starts a connection; a later call (restart) supersedes one still reading its settings. */
  async function connect() {
    const mine = ++generation;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    connecting = true;
    let url = "";
    try {
      const settings = await readSettings();
      const hello: Hello = { type: "hello", clientId: await clientId(), name: await browserName(), version: chrome.runtime.getManifest().version, userAgent: navigator.userAgent.slice(0, 500) };
      if (mine !== generation) return;
      url = wsUrl(settings.serverUrl, EXTENSION_WS_PATH);
      status("connecting", url);
      // A WebSocket can carry no header: a server off loopback finds its sign-in token in the address too.
      const signIn = settings.signIn ? `&signin=${encodeURIComponent(settings.signIn)}` : "";
      const ws = new WebSocket(`${url}?token=${encodeURIComponent(settings.token)}${signIn}`);
      socket = ws;
      let opened = false;
      ws.onopen = () => {
        if (ws !== socket) return;
        opened = true;
        attempt = 0;
        raw(hello);
        void hooks.greeting().then(
          (messages) => {
            if (ws !== socket || ws.readyState !== WebSocket.OPEN) return;
            for (const m of messages) raw(m);
            ready = true;
            for (const m of pending) raw(m);
            pending = [];
            const fresh = outbox.filter((o) => Date.now() - o.at < OUTBOX_MAX_AGE_MS);
            outbox = [];
            for (const o of fresh) raw(o.message);
            status("connected", url);
          },
          (err: unknown) => ws.close(4000, `could not read the browser's state: ${String(err)}`.slice(0, 120)),
        );
        clearInterval(heartbeat);
        heartbeat = setInterval(() => ready && raw({ type: "heartbeat" }), HEARTBEAT_MS);
      };
      ws.onmessage = (event) => {
        if (ws !== socket) return;
        let message: ServerMessage;
        try {
          // Nothing the server did not send in the contract's shape is acted on.
          message = serverMessageSchema.parse(JSON.parse(String(event.data)));
        } catch {
          return;
        }
        hooks.onMessage(message);
      };
      ws.onclose = (event) => {
        if (ws !== socket) return;
        socket = undefined;
        ready = false;
        pending = [];
        clearInterval(heartbeat);
        const why = opened
          ? `the server closed the connection (${event.code}${event.reason ? `: ${event.reason}` : ""})`
          : `could not connect to ${url} (is the server running, and are the tokens right?)`;
        scheduleRetry(url, why);
      };
    } catch (err) {
      // A malformed server URL: nothing to retry until the settings change, but the alarm tries.
      if (mine === generation) status("offline", url, `cannot connect: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      if (mine === generation) connecting = false;
    }
  }

  return {
    send(message) {
      if (ready) raw(message);
      else if (socket?.readyState === WebSocket.OPEN) pending.push(message);
    },
    sendSoon(message) {
      if (ready) raw(message);
      else outbox.push({ message, at: Date.now() });
    },
    ensure() {
      if (retryTimer || connecting || (socket && socket.readyState <= WebSocket.OPEN)) return;
      void connect();
    },
    restart() {
      clearInterval(heartbeat);
      attempt = 0;
      ready = false;
      pending = [];
      const old = socket;
      socket = undefined;
      old?.close(1000, "settings changed");
      void connect();
    },
  };
}

async function browserName(): Promise<string> {
  const { os } = await chrome.runtime.getPlatformInfo();
  const brand = (navigator as Navigator & { userAgentData?: { brands?: { brand: string }[] } }).userAgentData?.brands?.find((b) => !/not.?a.?brand/i.test(b.brand))?.brand;
  return `${brand ?? "Chrome"} on ${os}`;
}
