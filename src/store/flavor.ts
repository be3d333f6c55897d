// Where SQLite's SQL and Postgres's differ, the one spelling each query uses, chosen by the
// database a Kysely instance talks to.
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";

export type SqlFlavor = "sqlite" | "postgres";

/** Any Kysely instance or transaction, whatever its tables. */
type Db = Pick<Kysely<unknown>, "getExecutor">;

export function sqlFlavor(db: Db): SqlFlavor {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** A column that numbers a table's rows in the order they were written: SQLite's rowid, Postgres's `ord` (migration 0013). */
export function writtenOrder(db: Db, table?: string): RawBuilder<number> {
  const column = sqlFlavor(db) === "postgres" ? "ord" : "rowid";
  return sql<number>`${sql.ref(table ? `${table}.${column}` : column)}`;
}

/** A top-level text field of a JSON text column. */
export function jsonText(db: Db, column: string, key: string): RawBuilder<string | null> {
  return sqlFlavor(db) === "postgres" ? sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.lit(key)})` : sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`;
}

/** The greatest of several text values (ISO times compare as text). */
export function greatest(db: Db, ...values: RawBuilder<unknown>[]): RawBuilder<string> {
  return sqlFlavor(db) === "postgres" ? sql<string>`GREATEST(${sql.join(values)})` : sql<string>`MAX(${sql.join(values)})`;
}
