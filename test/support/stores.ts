// The databases the store's tests run against, each a real one: the embedded SQLite file, and a
// Postgres server of the test's own (support/postgres.ts). `useStores` opens a fresh store per call.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { Store } from "../../src/store/store.ts";
import { startPostgres, type Postgres } from "./postgres.ts";

export const DATABASES = ["sqlite", "postgres"] as const;
export type DatabaseKind = (typeof DATABASES)[number];

/** Call inside a describe block: its tests get a fresh store on `kind`, each in a data dir of its own. */
export function useStores(kind: DatabaseKind): { open(): Promise<Store> } {
  let server: Postgres | null = null;
  beforeAll(async () => {
    if (kind === "postgres") server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    async open() {
      const dataDir = await mkdtemp(path.join(tmpdir(), `easyagentcu-store-${kind}-`));
      return Store.open(dataDir, undefined, server ? await server.database() : null);
    },
  };
}
