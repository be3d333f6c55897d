// Opens the database and brings its schema up to date: the SQLite file under the data directory
// (the embedded default), or the Postgres server DATABASE_URL names. The same Kysely queries and
// migrations run on both; the few places where their SQL differs ask flavor.ts.
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { AppError } from "../core/errors.ts";
import { migrationProvider } from "./migrations.ts";
import type { Database } from "./schema.ts";

export async function openDatabase(dataDir: string, databaseUrl: string | null = null): Promise<Kysely<Database>> {
  mkdirSync(dataDir, { recursive: true });
  // The data dir is its owner's alone: it holds the install token, the chats and their screens, and
  // a fenced desktop's programs (another user on the same machine) must not read them.
  chmodSync(dataDir, 0o700);
  const db = databaseUrl ? await postgres(databaseUrl) : sqlite(path.join(dataDir, "easyagentcu.sqlite"));
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return db;
}

function sqlite(file: string): Kysely<Database> {
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

async function postgres(url: string): Promise<Kysely<Database>> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closes (a restart, a failover) is dropped by the pool, and the
  // next query opens another; unheard, its error would end the process.
  pool.on("error", () => undefined);
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end();
    const where = new URL(url);
    throw new AppError("STORAGE_FAILED", `Could not reach the Postgres server of DATABASE_URL (${where.host}${where.pathname}): ${error instanceof Error ? error.message : String(error)}.`);
  }
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
