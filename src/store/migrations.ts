// Schema migrations, applied in order at start. Append new ones; never edit an applied one.
import { sql, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { sqlFlavor } from "./flavor.ts";

const migrations: Record<string, Migration> = {
  "0001_initial": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("messages")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id"))
        .addColumn("task_id", "text")
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("attachments", "text", (c) => c.notNull().defaultTo("[]"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("messages_by_session").on("messages").columns(["session_id", "created_at"]).execute();
      await db.schema
        .createTable("tasks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) => c.notNull().references("sessions.id"))
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("start_url", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("current_step_index", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("live_frame_id", "text")
        .addColumn("answer", "text")
        .addColumn("error_code", "text")
        .addColumn("error_message", "text")
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("input_tokens", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("output_tokens", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("finished_at", "text")
        .execute();
      await db.schema.createIndex("tasks_by_session").on("tasks").columns(["session_id", "created_at"]).execute();
      await db.schema.createIndex("tasks_by_status").on("tasks").column("status").execute();
      await db.schema
        .createTable("steps")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("task_id", "text", (c) => c.notNull().references("tasks.id"))
        .addColumn("idx", "integer", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("thought", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("frame_id", "text")
        .addColumn("cursor_x", "integer")
        .addColumn("cursor_y", "integer")
        .addColumn("url", "text")
        .addColumn("planner", "text", (c) => c.notNull())
        .addColumn("input_tokens", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("output_tokens", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("steps_task_idx", ["task_id", "idx"])
        .execute();
      await db.schema
        .createTable("events")
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("task_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("events_pk", ["session_id", "seq"])
        .execute();
      await db.schema
        .createTable("frames")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("task_id", "text", (c) => c.notNull())
        .addColumn("step_id", "text")
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("width", "integer", (c) => c.notNull())
        .addColumn("height", "integer", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("frames_by_task").on("frames").column("task_id").execute();
    },
  },
  "0002_step_effect": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("steps").addColumn("effect", "text").execute();
    },
  },
  "0003_step_verification": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("steps").addColumn("verification", "text").execute();
    },
  },
  "0004_task_approval": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("tasks").addColumn("approval", "text").execute();
    },
  },
  "0005_events_by_task": {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("events_by_task_type").on("events").columns(["session_id", "task_id", "type"]).execute();
    },
  },
  // Chat events belong to no task: SQLite cannot drop NOT NULL in place, so the table is rebuilt.
  "0006_events_without_task": {
    // In one transaction, so a process killed halfway leaves the old table as it was (on Postgres
    // the migrator runs each migration in one already).
    async up(db: Kysely<unknown>) {
      const rebuild = async (trx: Kysely<unknown>) => {
        await trx.schema
          .createTable("events_new")
          .addColumn("session_id", "text", (c) => c.notNull())
          .addColumn("seq", "integer", (c) => c.notNull())
          .addColumn("task_id", "text")
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("data", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("events_new_pk", ["session_id", "seq"])
          .execute();
        await sql`INSERT INTO events_new SELECT session_id, seq, task_id, type, data, created_at FROM events`.execute(trx);
        await trx.schema.dropTable("events").execute();
        await trx.schema.alterTable("events_new").renameTo("events").execute();
        await trx.schema.createIndex("events_by_task_type").on("events").columns(["session_id", "task_id", "type"]).execute();
      };
      await (db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild));
    },
  },
  "0007_tool_agent": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("tasks").addColumn("mode", "text", (c) => c.notNull().defaultTo("actions")).execute();
      await db.schema.alterTable("tasks").addColumn("replay_of", "text").execute();
      await db.schema.alterTable("tasks").addColumn("cdp", "text").execute();
      await db.schema.alterTable("steps").addColumn("tool", "text").execute();
    },
  },
  "0008_computer": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("tasks").addColumn("computer", "text", (c) => c.notNull().defaultTo("browser")).execute();
    },
  },
  "0009_extension_client": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("tasks").addColumn("extension_client_id", "text").execute();
    },
  },
  "0010_step_timings": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("steps").addColumn("timings", "text").execute();
    },
  },
  // A title the person gave is theirs: the first message's summary no longer replaces it.
  "0011_session_renamed": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("sessions").addColumn("renamed", "integer", (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  // Files a task received (downloads): kept ones have a path under the data dir, refused ones the reason.
  "0012_files": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("files")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("task_id", "text", (c) => c.notNull().references("tasks.id"))
        .addColumn("step", "integer", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("mime_type", "text", (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("path", "text")
        .addColumn("refused", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("files_by_task").on("files").columns(["task_id", "created_at"]).execute();
    },
  },
  // Rows read in the order they were written (store/flavor.ts writtenOrder): SQLite numbers them
  // itself (rowid); Postgres numbers them in a column of their own.
  "0013_written_order": {
    async up(db: Kysely<unknown>) {
      if (sqlFlavor(db) === "sqlite") return;
      for (const table of ["messages", "tasks", "files"]) await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN ord BIGSERIAL`.execute(db);
    },
  },
  // Event ids are taken from the database, not from one process's memory, so that several
  // processes writing one session's events give each its own id, in the order they are written.
  "0014_event_seqs": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("event_seqs")
        .addColumn("session_id", "text", (c) => c.primaryKey())
        .addColumn("last", "integer", (c) => c.notNull())
        .execute();
      await sql`INSERT INTO event_seqs (session_id, last) SELECT session_id, MAX(seq) FROM events GROUP BY session_id`.execute(db);
    },
  },
  // What steps and tasks cost in dollars; null where a model had no price, and on rows recorded before.
  "0015_cost_usd": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("steps").addColumn("cost_usd", "double precision").execute();
      await db.schema.alterTable("tasks").addColumn("cost_usd", "double precision").execute();
    },
  },
  // What a planner's step carried out, for Run again and the export.
  "0016_step_carried_out": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("steps").addColumn("carried_out", "text").execute();
    },
  },
  // Which process holds each browser of BROWSER_CDP_URLS, for processes sharing one Postgres.
  "0017_browser_claims": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("browser_claims")
        .addColumn("endpoint", "text", (c) => c.primaryKey())
        .addColumn("holder", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
    },
  },
  // Which worker holds each task it runs (store/task-leases.ts): taking a task up counts `epoch` on,
  // and a worker whose epoch is not the last may write nothing more for the task.
  "0018_task_leases": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("task_leases")
        .addColumn("task_id", "text", (c) => c.primaryKey())
        .addColumn("holder", "text", (c) => c.notNull())
        .addColumn("epoch", "integer", (c) => c.notNull())
        .execute();
    },
  },
  // A chat's sign-ins (its browser's cookies) where every worker finds them: the chat's next task,
  // or its task taken up after its worker died, may run in another process (computers/browser/sign-ins.ts).
  "0019_chat_sign_ins": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("chat_sign_ins")
        .addColumn("session_id", "text", (c) => c.primaryKey())
        .addColumn("cookies", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
