// Read APIs: a session's messages and tasks, a task with its steps, its artifacts and the files it
// received, frame images, and a received file's bytes — always as a download, never rendered in the
// app's origin. Images and files are streamed from the blob store (the data dir or a bucket).
import { Hono } from "hono";
import { artifactRangeSchema, idSchema, type ArtifactReply, type MessagesReply, type TaskReply, type TasksReply } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { notFound, parseWith } from "../http-error.ts";

export function readRoutes(store: Store) {
  const session = async (raw: string) => {
    const id = parseWith(idSchema, raw, "session id");
    if (!(await store.getSession(id))) throw notFound("session", id);
    return id;
  };

  return new Hono()
    .get("/sessions/:id/messages", async (c) => {
      const id = await session(c.req.param("id"));
      return c.json<MessagesReply>({ messages: await store.listMessages(id) });
    })
    .get("/sessions/:id/tasks", async (c) => {
      const id = await session(c.req.param("id"));
      return c.json<TasksReply>({ tasks: await store.listTasks(id) });
    })
    .get("/tasks/:id", async (c) => {
      const id = c.req.param("id");
      const task = await store.getTask(id);
      if (!task) throw notFound("task", id);
      const [steps, files] = await Promise.all([store.listSteps(id), store.received.list(id)]);
      return c.json<TaskReply>({ task, steps, files });
    })
    .get("/tasks/:id/artifacts/:artifact", async (c) => {
      const id = c.req.param("id");
      const task = await store.getTask(id);
      if (!task) throw notFound("task", id);
      const artifactId = c.req.param("artifact");
      const text = await store.readArtifact(task, artifactId);
      if (text === null) throw notFound("artifact", artifactId);
      const { offset, length } = parseWith(artifactRangeSchema, c.req.query(), "query");
      const part = text.slice(offset, length === undefined ? undefined : offset + length);
      return c.json<ArtifactReply>({ artifact_id: artifactId, task_id: id, offset, length: part.length, total_chars: text.length, text: part });
    })
    .get("/frames/:id", async (c) => {
      const id = c.req.param("id");
      const frame = await store.files.open(id);
      if (!frame) throw notFound("frame", id);
      // Step frames never change; the live frame's URL carries a version, so caching is safe.
      c.header("cache-control", "private, max-age=31536000, immutable");
      return c.body(frame.body, 200, { "content-type": frame.mimeType, ...(frame.size === null ? {} : { "content-length": String(frame.size) }) });
    })
    .get("/files/:id", async (c) => {
      const id = c.req.param("id");
      const file = await store.received.open(id);
      if (!file) throw notFound("file", id);
      return c.body(file.body, 200, {
        "content-type": file.mime_type,
        "content-length": String(file.size),
        "content-disposition": attachment(file.name),
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
      });
    });
}

/** `attachment` with the name as RFC 6266 gives it: an ASCII fallback, and the UTF-8 name percent-encoded. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
