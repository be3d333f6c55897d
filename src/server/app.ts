// The HTTP app: the API under /api, MCP's streamable HTTP at /mcp and, when built, the web UI at /.
// One server serves them all.
import { existsSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Logger } from "pino";
import type { ChatAgent } from "../agent/chat-agent.ts";
import type { Runtime } from "../agent/runtime.ts";
import type { ExtensionHost } from "../computers/extension/extension-host.ts";
import { mcpRoutes } from "../mcp/http.ts";
import { EXTENSION_ARTIFACTS_PATH, INSTALL_TOKEN_META, type ComputerKind, type HealthReply, type ModelStatusReply } from "../protocol/index.ts";
import type { Config } from "../core/config.ts";
import type { Store } from "../store/store.ts";
import { changesNeedToken, signIn } from "./auth.ts";
import { errorReply } from "./http-error.ts";
import { rateLimit } from "./rate-limit.ts";
import { aguiRoutes } from "./routes/agui.ts";
import { chatRoutes } from "./routes/chat.ts";
import { artifactRoutes, extensionRoutes } from "./routes/extension.ts";
import { exportRoutes } from "./routes/export.ts";
import { readRoutes } from "./routes/reads.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { settingsRoutes, type ModelSettingsControl } from "./routes/settings.ts";
import { streamRoutes } from "./routes/stream.ts";

export interface AppDeps {
  store: Store;
  runtime: Runtime;
  chat: ChatAgent;
  log: Logger;
  /** The built web UI (web/dist); when absent, / explains how to build it. */
  webDir?: string;
  /** When set, every request must carry it (see auth.ts). */
  authToken?: string | undefined;
  /** Host names besides localhost and IP addresses that requests may name (ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** Every state-changing request carries it; the UI's page holds it. */
  installToken: string;
  /** API requests a second per client address (rate-limit.ts); 0: no limit. */
  ratePerSecond: number;
  /** What a task drives unless its request says (COMPUTER); the UI preselects it. */
  defaultComputer: ComputerKind;
  /** The person's Chrome through the extension (seed 004). */
  extensions: ExtensionHost;
  /** Whether the models can be asked, for the UI's first-run banner. */
  modelStatus(): Promise<ModelStatusReply>;
  /** The model the person sets in the app. */
  modelSettings: ModelSettingsControl;
  /** The configuration as the server started (exports turn screenshot pixels into CSS pixels with its browser's scale). */
  config: Config;
}

/** Ten attachments of up to 10 MB each would be more; the schema caps them too. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;
const tooLarge = { error: { code: "INVALID_BODY", message: `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.` } };
const streamedLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(tooLarge, 413) });

/**
 * A declared Content-Length is checked without opening the body; hono's bodyLimit, which reads a
 * streamed body through, opens it either way. A body opened but never read (a request refused for
 * its token or content type) stalls @hono/node-server's drain, which then drops the keep-alive
 * connection after 500 ms, and the next request on it fails (test/integration/api-fuzz.test.ts).
 */
const limitBody: MiddlewareHandler = async (c, next) => {
  const declared = c.req.header("content-length");
  if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return streamedLimit(c, next);
  if (Number(declared) > MAX_BODY_BYTES) return c.json(tooLarge, 413);
  await next();
};

/**
 * The API answers only the UI it serves: a browser request from another origin (a web page the
 * person happens to visit) is refused, and so is a Host that is neither an address of this machine
 * nor a name the settings allow (DNS rebinding).
 */
function sameOrigin(allowedHosts: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    const hostname = host.replace(/:\d+$/, "").replace(/^\[|\]$/g, "").toLowerCase();
    if (hostname !== "localhost" && !isIP(hostname) && !allowedHosts.includes(hostname)) {
      const message = `Use this server by IP address or as localhost, not as ${hostname}; behind a reverse proxy, name it in ALLOWED_HOSTS.`;
      return c.json({ error: { code: "FORBIDDEN", message } }, 403);
    }
    const origin = c.req.header("origin");
    if (origin && origin !== `http://${host}` && origin !== `https://${host}`) {
      return c.json({ error: { code: "FORBIDDEN", message: `Requests from ${origin} are not allowed.` } }, 403);
    }
    await next();
  };
}

/** Whether the request's client went away before it was answered (its connection closed). */
function clientLeft(c: Context): boolean {
  return c.req.raw.signal.aborted;
}

export function createApp({ store, runtime, chat, log, config, webDir, authToken, allowedHosts = [], installToken, ratePerSecond, defaultComputer, extensions, modelStatus, modelSettings }: AppDeps) {
  const app = new Hono();
  app.onError((error, c) => {
    const reply = errorReply(c, error);
    // A client that left mid-body (a tab closed as it sent) is no fault of ours, and gets no reply.
    if (clientLeft(c)) log.warn({ path: c.req.path, method: c.req.method }, "the client closed the connection before its request was sent");
    else if (reply.status >= 500) log.error({ err: error, path: c.req.path }, "request failed");
    return reply;
  });
  const noRoute = (c: Context) => c.json({ error: { code: "NOT_FOUND", message: `No route ${c.req.method} ${c.req.path}.` } }, 404);
  app.notFound(noRoute);

  // No site may frame the UI (clickjacking), and the UI runs only its own scripts.
  app.use(
    "*",
    secureHeaders({
      xFrameOptions: "DENY",
      referrerPolicy: "no-referrer",
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    }),
  );
  const limit = rateLimit(ratePerSecond);
  app.use("/api/*", limit);
  app.use("/login", limit);
  // The extension uploads from its own origin with the install token, which the UI's origin check
  // below would refuse; its routes check both, and the sign-in (a bearer header), themselves.
  app.route(EXTENSION_ARTIFACTS_PATH, artifactRoutes(extensions, installToken, authToken));
  if (authToken) app.use("*", signIn(authToken));
  app.use("/api/*", sameOrigin(allowedHosts), limitBody, changesNeedToken(installToken));
  // MCP clients are asked what the API's scripts are: the sign-in above, and the install token for what changes state.
  app.use("/mcp", limit, sameOrigin(allowedHosts), changesNeedToken(installToken));
  app.route("/mcp", mcpRoutes({ store, runtime }, config.limits.mcpSessionIdleMs));
  app.get("/api/health", (c) => c.json<HealthReply>({ ok: true, computer: defaultComputer }));
  app.get("/api/model-status", async (c) => c.json<ModelStatusReply>(await modelStatus()));
  app.route("/api", settingsRoutes(modelSettings));
  app.route("/api/chat", chatRoutes(store, runtime, chat));
  app.route("/api/chat", streamRoutes(store));
  app.route("/api/agui", aguiRoutes(store, runtime, chat));
  app.route("/api", sessionRoutes(store, runtime));
  app.route("/api", readRoutes(store));
  app.route("/api", exportRoutes(store, config.browser.deviceScaleFactor));
  app.route("/api/extension", extensionRoutes(extensions));
  // An unknown API path is a 404, never the UI's index.html.
  app.all("/api/*", noRoute);

  if (webDir && existsSync(path.join(webDir, "index.html"))) {
    const root = path.relative(process.cwd(), webDir) || ".";
    const page = uiPage(path.join(webDir, "index.html"), installToken);
    app.get("/", page);
    app.get("/index.html", page);
    app.use("/*", serveStatic({ root }));
    app.get("*", page);
  }
  return app;
}

/** The UI's page, with the install token in it for the UI's requests; never cached. */
function uiPage(file: string, installToken: string) {
  let html: string | null = null;
  return (c: Context) => {
    html ??= readFileSync(file, "utf8").replace("</head>", `<meta name="${INSTALL_TOKEN_META}" content="${installToken}">\n</head>`);
    c.header("cache-control", "no-store");
    return c.html(html);
  };
}
