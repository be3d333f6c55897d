// Which process holds each browser of BROWSER_CDP_URLS, so that processes sharing one Postgres (a
// `serve` and its workers) never lease one browser to two tasks. A claim is a row taken in one
// statement — inserted, or taken over once the claim in it has expired — and renewed while its task
// holds the browser; a process that dies leaves a claim that expires. On SQLite only one process
// uses the store, and the same rows do no harm.
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

/** How long a claim lasts unless renewed: a dead process's browsers are free again after it. */
export const CLAIM_TTL_MS = 30_000;
/** Claims are renewed this often, well within their life. */
const RENEW_MS = CLAIM_TTL_MS / 3;

/** A browser claimed for one task; `release` gives it up. */
export interface Claim {
  release(): Promise<void>;
}

export class BrowserClaims {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims the browser at `url` for one task; null while another holds it. `lost` is called once if
   * the claim is found taken over (its renewals failed until it expired and another process took it).
   */
  async claim(url: string, lost: () => void = () => undefined): Promise<Claim | null> {
    const endpoint = createHash("sha256").update(url).digest("hex");
    const holder = randomBytes(12).toString("hex");
    if (!(await this.take(endpoint, holder))) return null;
    // A renewal that fails (the database out of reach a moment) is tried again at the next; one that
    // finds the row no longer ours means two tasks could drive the browser: its holder is told.
    const timer = setInterval(() => {
      void this.renew(endpoint, holder).then(
        (held) => {
          if (held) return;
          clearInterval(timer);
          lost();
        },
        () => undefined,
      );
    }, RENEW_MS);
    timer.unref();
    let released: Promise<void> | null = null;
    return {
      release: () => {
        clearInterval(timer);
        released ??= this.db
          .deleteFrom("browser_claims")
          .where("endpoint", "=", endpoint)
          .where("holder", "=", holder)
          .execute()
          .then(() => undefined);
        return released;
      },
    };
  }

  private async take(endpoint: string, holder: string): Promise<boolean> {
    const now = new Date();
    const expires_at = new Date(now.getTime() + CLAIM_TTL_MS).toISOString();
    await this.db
      .insertInto("browser_claims")
      .values({ endpoint, holder, expires_at })
      .onConflict((conflict) => conflict.column("endpoint").doUpdateSet({ holder, expires_at }).where("browser_claims.expires_at", "<", now.toISOString()))
      .execute();
    const row = await this.db.selectFrom("browser_claims").select("holder").where("endpoint", "=", endpoint).executeTakeFirst();
    return row?.holder === holder;
  }

  /** Whether the claim was still this holder's, renewed. */
  private async renew(endpoint: string, holder: string): Promise<boolean> {
    const expires_at = new Date(Date.now() + CLAIM_TTL_MS).toISOString();
    const [result] = await this.db.updateTable("browser_claims").set({ expires_at }).where("endpoint", "=", endpoint).where("holder", "=", holder).execute();
    return (result?.numUpdatedRows ?? 0n) > 0n;
  }
}
