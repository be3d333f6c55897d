// GET /api/chat/stream?session_id=… (seed 000 §7.2): the session's events as SSE. Each event's
// `id` is its per-session number; a client that reconnects with `Last-Event-ID` (or
// `?last_event_id=`) first receives exactly what it missed. A client may subscribe before its
// first send creates the session: the stream stays open and carries the events once they come.
// Each client is a viewer of the session: while one is there, its tasks stream their live view.
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { idSchema } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { parseWith } from "../http-error.ts";
import { SessionQueue } from "../session-queue.ts";

const HEARTBEAT_MS = 15_000;
const lastIdSchema = z.coerce.number().int().min(0).default(0);

export function streamRoutes(store: Store) {
  return new Hono().get("/stream", (c) => {
    const sessionId = parseWith(idSchema, c.req.query("session_id"), "session_id");
    const lastId = parseWith(lastIdSchema, c.req.header("last-event-id") || c.req.query("last_event_id") || undefined, "Last-Event-ID");
    c.header("x-accel-buffering", "no");
    return streamSSE(c, async (stream) => {
      const events = await SessionQueue.open(store, sessionId, lastId);
      stream.onAbort(() => events.wake());
      try {
        while (!stream.aborted) {
          const event = await events.next(HEARTBEAT_MS);
          if (event) await stream.writeSSE({ id: String(event.id), event: event.type, data: JSON.stringify(event) });
          else if (!stream.aborted) await stream.write(": ping\n\n");
        }
      } finally {
        events.close();
      }
    });
  });
}
