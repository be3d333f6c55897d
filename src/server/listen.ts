// Starts the HTTP server on the configured host and port and resolves with its address.
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp, type AppDeps } from "./app.ts";
import { extensionSocket } from "./extension-socket.ts";

const KEEP_ALIVE_MS = 65_000;

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listen(deps: AppDeps, host: string, port: number): Promise<Listening> {
  const app = createApp(deps);
  const extensions = extensionSocket(deps.extensions.registry, deps.installToken, deps.authToken);
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
        const shownHost = host.includes(":") ? `[${host}]` : host;
        resolve({
          url: `http://${shownHost}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              // Open SSE streams and extension sockets would keep the server alive forever.
              extensions.close();
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      });
    } catch (error) {
      reject(error);
      return;
    }
    // Node closes an idle keep-alive connection after 5 s, racing a client that reuses it just then
    // (a request lost to "other side closed"); a minute is what proxies and browsers expect.
    (server as { keepAliveTimeout: number }).keepAliveTimeout = KEEP_ALIVE_MS;
    server.once("error", reject);
    server.on("upgrade", extensions.upgrade);
  });
}
