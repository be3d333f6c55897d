// Opens the SQLite file under the data directory and brings its schema up to date.
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { migrationProvider } from "./migrations.ts";
import type { Database } from "./schema.ts";

export async function openDatabase(dataDir: string): Promise<Kysely<Database>> {
  mkdirSync(dataDir, { recursive: true });
  // The data dir is its owner's alone: it holds the install token, the chats and their screens, and
  // a fenced desktop's programs (another user on the same machine) must not read them.
  chmodSync(dataDir, 0o700);
  const sqlite = new SQLite(path.join(dataDir, "easyagentcu.sqlite"));
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return db;
}
