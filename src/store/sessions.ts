// The chat list: each session with where its latest task stands and when it last saw activity,
// the person's renames, and deleting a chat with everything recorded for it, its sign-ins too.
import { sql, type Kysely } from "kysely";
import { sessionStatus, type Session, type TaskStatus } from "../protocol/index.ts";
import { greatest, jsonText, writtenOrder } from "./flavor.ts";
import type { Database } from "./schema.ts";

const ACTIVE: TaskStatus[] = ["queued", "running", "awaiting_user", "takeover"];

interface SessionRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  task_status: string | null;
  last_activity_at: string;
  cost_usd: number | null;
}

/** Sessions with their latest task's status, the most recently active first. */
export async function listSessions(db: Kysely<Database>, id?: string): Promise<Session[]> {
  // ISO times compare as text, so the greatest of the three is the latest.
  const { rows } = await sql<SessionRow>`
    SELECT s.id, s.title, s.created_at, s.updated_at,
      (SELECT t.status FROM tasks AS t WHERE t.session_id = s.id ORDER BY t.created_at DESC, ${writtenOrder(db, "t")} DESC LIMIT 1) AS task_status,
      ${greatest(
        db,
        sql`s.updated_at`,
        sql`COALESCE((SELECT MAX(m.created_at) FROM messages AS m WHERE m.session_id = s.id), '')`,
        sql`COALESCE((SELECT MAX(t.updated_at) FROM tasks AS t WHERE t.session_id = s.id), '')`,
      )} AS last_activity_at,
      (SELECT CASE WHEN COUNT(*) = COUNT(t.cost_usd) THEN COALESCE(SUM(t.cost_usd), 0) END FROM tasks AS t WHERE t.session_id = s.id) AS cost_usd
    FROM sessions AS s
    ${id === undefined ? sql`` : sql`WHERE s.id = ${id}`}
    ORDER BY last_activity_at DESC, s.created_at DESC`.execute(db);
  return rows.map((row) => {
    const task_status = row.task_status as TaskStatus | null;
    return { ...row, task_status, status: sessionStatus(task_status) };
  });
}

export async function renameSession(db: Kysely<Database>, id: string, title: string): Promise<void> {
  await db.updateTable("sessions").set({ title, renamed: 1 }).where("id", "=", id).execute();
}

/**
 * Why the session cannot be deleted now, or null: a task of it that has not ended (one waiting
 * for the person too), or an answer the assistant is still writing.
 */
export async function deleteRefusal(db: Kysely<Database>, id: string): Promise<string | null> {
  const task = await db.selectFrom("tasks").select(["id", "status"]).where("session_id", "=", id).where("status", "in", ACTIVE).executeTakeFirst();
  if (task) return `Its task ${task.id} is ${task.status}; stop it first, then delete the chat.`;
  const { rows } = await sql<{ n: number }>`
    SELECT COUNT(*) AS n FROM events AS started
    WHERE started.session_id = ${id} AND started.type = 'chat.started' AND NOT EXISTS (
      SELECT 1 FROM events AS ended
      WHERE ended.session_id = started.session_id AND ended.type IN ('chat.completed', 'chat.failed')
        AND ${jsonText(db, "ended.data", "message_id")} = ${jsonText(db, "started.data", "message_id")})`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0 ? "The assistant is still answering; stop the answer first, then delete the chat." : null;
}

/** Deletes the session's rows in one transaction; its files are the caller's (DataFiles.removeSession). */
export async function deleteSessionRows(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tasks = trx.selectFrom("tasks").select("id").where("session_id", "=", id);
    await trx.deleteFrom("frames").where("task_id", "in", tasks).execute();
    await trx.deleteFrom("files").where("task_id", "in", tasks).execute();
    await trx.deleteFrom("steps").where("task_id", "in", tasks).execute();
    await trx.deleteFrom("task_leases").where("task_id", "in", tasks).execute();
    await trx.deleteFrom("tasks").where("session_id", "=", id).execute();
    await trx.deleteFrom("messages").where("session_id", "=", id).execute();
    await trx.deleteFrom("events").where("session_id", "=", id).execute();
    await trx.deleteFrom("event_seqs").where("session_id", "=", id).execute();
    await trx.deleteFrom("sessions").where("id", "=", id).execute();
    // After the chat's row: a browser keeping its sign-ins as this runs either waited for this delete
    // and wrote nothing, or wrote before it and its row goes here (Store.keepSignIns).
    await trx.deleteFrom("chat_sign_ins").where("session_id", "=", id).execute();
  });
}
