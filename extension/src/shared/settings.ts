// The extension's settings and identity in chrome.storage.local (the server's address, its install
// token, the sign-in token of a server on another machine, the client id made once), and the connection state the worker publishes for the popup in
// chrome.storage.session. The worker and the popup both read them here.

export const DEFAULT_SERVER_URL = "http://127.0.0.1:8000";

export interface Settings {
  serverUrl: string;
  token: string;
  /** The token a server off loopback prints in its sign-in link; empty for one on this machine. */
  signIn: string;
}

/** What the popup shows: `offline` carries the last error. */
export interface ConnectionStatus {
  state: "connected" | "connecting" | "offline";
  /** The WebSocket address tried, token left out. */
  url: string;
  lastError?: string;
  /** When the state began (ms since the epoch). */
  since: number;
}

export const SETTINGS_KEYS = ["serverUrl", "token", "signIn"] as const;
/** A change to any of these makes the worker connect afresh; `savedAt` is a save with nothing changed. */
export const RECONNECT_KEYS = [...SETTINGS_KEYS, "savedAt"] as const;
const CLIENT_ID_KEY = "clientId";
export const STATUS_KEY = "connectionStatus";

/** The settings, defaults filled in; a blank server URL means the default. */
export async function readSettings(): Promise<Settings> {
  const stored = await chrome.storage.local.get([...SETTINGS_KEYS]);
  const serverUrl = typeof stored.serverUrl === "string" && stored.serverUrl.trim() ? stored.serverUrl.trim() : DEFAULT_SERVER_URL;
  const token = typeof stored.token === "string" ? stored.token.trim() : "";
  const signIn = typeof stored.signIn === "string" ? stored.signIn.trim() : "";
  return { serverUrl, token, signIn };
}

export async function writeSettings(settings: Settings): Promise<void> {
  await chrome.storage.local.set({ serverUrl: settings.serverUrl.trim(), token: settings.token.trim(), signIn: settings.signIn.trim(), savedAt: Date.now() });
}

/** This browser profile's id, the same across restarts: a random UUID made the first time. */
export async function clientId(): Promise<string> {
  const stored = await chrome.storage.local.get(CLIENT_ID_KEY);
  if (typeof stored[CLIENT_ID_KEY] === "string") return stored[CLIENT_ID_KEY];
  const id = crypto.randomUUID();
  await chrome.storage.local.set({ [CLIENT_ID_KEY]: id });
  return id;
}

/** The id if one was made already; the popup never makes one. */
export async function existingClientId(): Promise<string | undefined> {
  const stored = await chrome.storage.local.get(CLIENT_ID_KEY);
  return typeof stored[CLIENT_ID_KEY] === "string" ? stored[CLIENT_ID_KEY] : undefined;
}

export async function readStatus(): Promise<ConnectionStatus | undefined> {
  const stored = await chrome.storage.session.get(STATUS_KEY);
  return stored[STATUS_KEY] as ConnectionStatus | undefined;
}

export async function writeStatus(status: ConnectionStatus): Promise<void> {
  await chrome.storage.session.set({ [STATUS_KEY]: status });
}

/**
 * The WebSocket address for a server URL: http → ws, https → wss, the path replaced.
 * @example wsUrl("http://127.0.0.1:8000", "/api/extension/ws") // "ws://127.0.0.1:8000/api/extension/ws"
 */
export function wsUrl(serverUrl: string, path: string): string {
  const url = new URL(serverUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.pathname = path;
  url.search = "";
  url.hash = "";
  return url.toString();
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Whether `pageUrl` is on the server's own origin, where the extension must never act (§4.3).
 * The loopback names count as one host, since the UI is opened as either.
 */
export function isOwnOrigin(pageUrl: string | undefined, serverUrl: string): boolean {
  if (!pageUrl) return false;
  let page: URL;
  let server: URL;
  try {
    page = new URL(pageUrl);
    server = new URL(serverUrl);
  } catch {
    return false;
  }
  if (page.origin === server.origin) return true;
  const sameHost = page.hostname === server.hostname || (LOOPBACK.has(page.hostname) && LOOPBACK.has(server.hostname));
  return sameHost && page.protocol === server.protocol && page.port === server.port;
}
