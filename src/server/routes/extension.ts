// The extension's HTTP side (seed 004 §1): the artifact service's upload and download, which the
// extension calls with the install token from its own origin (chrome-extension://) — signed in
// too on a server that asks for it — and the list of connected extensions and a task's action
// records, which the UI reads.
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ExtensionHost } from "../../computers/extension/extension-host.ts";
import { ARTIFACT_MAX_BYTES, idSchema, INSTALL_TOKEN_HEADER, type ExtensionListReply } from "../../protocol/index.ts";
import { isInstallToken, signedIn } from "../auth.ts";
import { notFound, parseWith } from "../http-error.ts";

/** Only the extension (or a script) with the install token, and the sign-in token when there is one; never a web page. */
function extensionOnly(token: string, authToken: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin && !origin.startsWith("chrome-extension://")) return c.json({ error: { code: "FORBIDDEN", message: `Requests from ${origin} are not allowed.` } }, 403);
    if (!isInstallToken(c.req.header(INSTALL_TOKEN_HEADER), token)) {
      return c.json({ error: { code: "FORBIDDEN", message: `The extension needs this server's install token (${INSTALL_TOKEN_HEADER}); set it in the extension's popup.` } }, 403);
    }
    if (authToken && !signedIn(c, authToken)) {
      const message = "This server asks for sign-in: give the extension the sign-in token the server printed (what its …/login?token= link ends with) in its popup.";
      return c.json({ error: { code: "UNAUTHORIZED", message } }, 401);
    }
    await next();
  };
}

/** Upload and download: mounted before the UI's origin check, which an extension's origin fails. */
export function artifactRoutes(host: ExtensionHost, token: string, authToken: string | undefined) {
  const tooLarge = { error: { code: "INVALID_BODY", message: `An artifact may be at most ${ARTIFACT_MAX_BYTES} bytes.` } };
  return new Hono()
    .use("*", extensionOnly(token, authToken))
    .post("/", bodyLimit({ maxSize: ARTIFACT_MAX_BYTES, onError: (c) => c.json(tooLarge, 413) }), async (c) => {
      const data = Buffer.from(await c.req.arrayBuffer());
      const artifactId = host.artifacts.put(data, c.req.header("content-type") ?? "application/octet-stream");
      return c.json({ artifactId, bytes: data.length }, 201);
    })
    .get("/:id", (c) => {
      const id = c.req.param("id");
      const artifact = host.artifacts.get(id);
      if (!artifact) throw notFound("artifact", id);
      return c.body(new Uint8Array(artifact.data), 200, { "content-type": artifact.mimeType, "cache-control": "no-store" });
    });
}

export function extensionRoutes(host: ExtensionHost) {
  return new Hono()
    .get("/extension-list", (c) => c.json<ExtensionListReply>({ extensions: host.registry.list() }))
    .get("/actions", (c) => {
      const taskId = parseWith(idSchema, c.req.query("task_id") ?? "", "task_id");
      return c.json({ actions: host.scheduler.recordsOf(taskId) });
    });
}
