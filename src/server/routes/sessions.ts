// The chat list and its changes: GET and POST /api/sessions, PATCH /api/sessions/:id (rename) and
// DELETE /api/sessions/:id, which a task or an answer under way refuses (SESSION_BUSY), and which
// forgets the chat's browser sign-ins with its records.
import { Hono } from "hono";
import type { Runtime } from "../../agent/runtime.ts";
import { AppError } from "../../core/errors.ts";
import { createSessionBodySchema, idSchema, renameSessionBodySchema, type Session, type SessionsReply } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { notFound, parseBody, parseWith } from "../http-error.ts";

export function sessionRoutes(store: Store, runtime: Runtime) {
  const existing = async (raw: string) => {
    const id = parseWith(idSchema, raw, "session id");
    if (!(await store.getSession(id))) throw notFound("session", id);
    return id;
  };

  return new Hono()
    .get("/sessions", async (c) => c.json<SessionsReply>({ sessions: await store.listSessions() }))
    .post("/sessions", async (c) => {
      const body = await parseBody(c, createSessionBodySchema);
      return c.json(await store.createSession(body.title), 201);
    })
    .patch("/sessions/:id", async (c) => {
      // The body is read first: one left unread stalls the keep-alive connection (app.ts, limitBody).
      const { title } = await parseBody(c, renameSessionBodySchema);
      const id = await existing(c.req.param("id"));
      await store.renameSession(id, title);
      return c.json<Session>((await store.getSession(id))!);
    })
    .delete("/sessions/:id", async (c) => {
      const id = await existing(c.req.param("id"));
      const running = runtime.activeTask(id);
      const refusal = running ? `Its task ${running} is running; stop it first, then delete the chat.` : await store.deleteRefusal(id);
      if (refusal) throw new AppError("SESSION_BUSY", `Chat ${id} cannot be deleted now. ${refusal}`);
      await store.deleteSession(id);
      runtime.forgetChat(id);
      return c.body(null, 204);
    });
}
