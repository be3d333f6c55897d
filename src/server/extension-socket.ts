// The extension's WebSocket (seed 004 §1): upgrades on EXTENSION_WS_PATH with the install token in
// the query, from an extension's origin or from no browser at all (a web page's origin is
// refused, so no site the person visits can pose as their extension), and hands the socket to the
// registry. A server that asks for sign-in (off loopback) asks it here too.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { ExtensionRegistry } from "../computers/extension/registry.ts";
import { EXTENSION_WS_PATH } from "../protocol/index.ts";
import { isInstallToken, upgradeSignedIn } from "./auth.ts";

/**
 * `upgrade`: the HTTP server's listener, other paths refused; `close` ends every extension's
 * socket, which the HTTP server's own close does not reach. `authToken`: the sign-in token, when
 * the server asks for one (see auth.ts).
 */
export function extensionSocket(registry: ExtensionRegistry, token: string, authToken: string | undefined) {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  const close = () => {
    for (const client of sockets.clients) client.terminate();
  };
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const origin = request.headers.origin;
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== EXTENSION_WS_PATH) return refuse("404 Not Found");
    if (origin && !origin.startsWith("chrome-extension://")) return refuse("403 Forbidden");
    if (!isInstallToken(url.searchParams.get("token"), token)) return refuse("403 Forbidden");
    if (authToken && !upgradeSignedIn(request, url.searchParams, authToken)) return refuse("401 Unauthorized");
    sockets.handleUpgrade(request, socket, head, (ws) => registry.accept(ws));
  };
  return { upgrade, close };
}
