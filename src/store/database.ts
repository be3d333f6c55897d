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

export interface OpenDatabase {
  db: Kysely<Database>;
  /** Postgres only: what every process on the database says on a channel (LISTEN/NOTIFY). */
  notices: Notices | null;
}

export interface Notices {
  /** Calls `heard` with each payload said on `channel`, and with null when some may have been missed (the connection was lost and is back). */
  listen(channel: string, heard: (payload: string | null) => void): Promise<void>;
  close(): Promise<void>;
}

export async function openDatabase(dataDir: string, databaseUrl: string | null = null): Promise<OpenDatabase> {
  mkdirSync(dataDir, { recursive: true });
  // The data dir is its owner's alone: it holds the install token, the chats and their screens, and
  // a fenced desktop's programs (another user on the same machine) must not read them.
  chmodSync(dataDir, 0o700);
  const { db, notices } = databaseUrl ? await postgres(databaseUrl) : { db: sqlite(path.join(dataDir, "easyagentcu.sqlite")), notices: null };
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await notices?.close();
    await db.destroy();
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return { db, notices };
}

function sqlite(file: string): Kysely<Database> {
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

/**
 * How long a transaction may wait on its process between statements. A process frozen inside one
 * (SIGSTOP, a stalled machine) would hold its locks — a session's next event id, a task's lease —
 * and stall every other process's writes until it woke; past this the server ends its connection.
 */
const IDLE_IN_TRANSACTION_MS = 10_000;

async function postgres(url: string): Promise<OpenDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: 10, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS });
  // An idle connection the server closes (a restart, a failover) is dropped by the pool, and the
  // next query opens another; unheard, its error would end the process.
  pool.on("error", () => undefined);
  // So is one the server closes while it is lent out (IDLE_IN_TRANSACTION_MS): the query that
  // uses it next fails instead, and the pool drops it when it comes back.
  pool.on("connect", (client) => client.on("error", () => undefined));
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end();
    const where = new URL(url);
    throw new AppError("STORAGE_FAILED", `Could not reach the Postgres server of DATABASE_URL (${where.host}${where.pathname}): ${error instanceof Error ? error.message : String(error)}.`);
  }
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), notices: new PostgresNotices(url) };
}

/** Time between tries to listen again after the connection was lost. */
const RELISTEN_MS = 1_000;

/** One connection of its own that listens; lost, it connects again and says some may have been missed. */
class PostgresNotices implements Notices {
  private client: pg.Client | null = null;
  private readonly channels = new Map<string, (payload: string | null) => void>();
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, heard: (payload: string | null) => void): Promise<void> {
    this.channels.set(channel, heard);
    const client = this.client ?? (await this.connect());
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (notice) => this.channels.get(notice.channel)?.(notice.payload ?? ""));
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    await client.connect();
    this.client = client;
    return client;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    const retry = () => {
      if (this.closed) return;
      this.connect()
        .then(async (fresh) => {
          for (const channel of this.channels.keys()) await fresh.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
          for (const heard of this.channels.values()) heard(null);
        })
        .catch(() => setTimeout(retry, RELISTEN_MS).unref());
    };
    retry();
  }
}
