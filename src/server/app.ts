// The HTTP app: the API under /api and, when built, the web UI at /. One server serves both.
import { existsSync } from "node:fs";
import path from "node:path";
import { Hono, type Context } from "hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Logger } from "pino";
import type { Runtime } from "../agent/runtime.ts";
import type { Store } from "../store/store.ts";
import { errorReply } from "./http-error.ts";
import { chatRoutes } from "./routes/chat.ts";
import { readRoutes } from "./routes/reads.ts";
import { streamRoutes } from "./routes/stream.ts";

export interface AppDeps {
  store: Store;
  runtime: Runtime;
  log: Logger;
  /** The built web UI (web/dist); when absent, / explains how to build it. */
  webDir?: string;
}

export function createApp({ store, runtime, log, webDir }: AppDeps) {
  const app = new Hono();
  app.onError((error, c) => {
    const reply = errorReply(c, error);
    if (reply.status >= 500) log.error({ err: error, path: c.req.path }, "request failed");
    return reply;
  });
  const noRoute = (c: Context) => c.json({ error: { code: "NOT_FOUND", message: `No route ${c.req.method} ${c.req.path}.` } }, 404);
  app.notFound(noRoute);

  app.get("/api/health", (c) => c.json({ ok: true }));
  app.route("/api/chat", chatRoutes(store, runtime));
  app.route("/api/chat", streamRoutes(store));
  app.route("/api", readRoutes(store));
  // An unknown API path is a 404, never the UI's index.html.
  app.all("/api/*", noRoute);

  if (webDir && existsSync(path.join(webDir, "index.html"))) {
    const root = path.relative(process.cwd(), webDir) || ".";
    app.use("/*", serveStatic({ root }));
    app.get("*", serveStatic({ root, path: "index.html" }));
  }
  return app;
}
