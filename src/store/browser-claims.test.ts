// A browser of BROWSER_CDP_URLS claimed by one task of one process at a time, on either database:
// a second claim waits for the first to be given up, or for it to expire when its process died, and
// a holder whose expired claim was taken over is told.
import { describe, expect, it } from "vitest";
import { DATABASES, useStores } from "../../test/support/stores.ts";
import { BrowserClaims } from "./browser-claims.ts";

const URL_A = "ws://10.0.0.7:9222/devtools/browser/abc?token=secret";

describe.each(DATABASES)("browser claims on %s", (database) => {
  const stores = useStores(database);

  it("lets one holder claim a browser until it gives it up, and keeps no address in the store", async () => {
    const store = await stores.open();
    try {
      const here = new BrowserClaims(store.db);
      const there = new BrowserClaims(store.db);
      const first = await here.claim(URL_A);
      expect(first).not.toBeNull();
      expect(await there.claim(URL_A)).toBeNull();
      expect(await there.claim("http://10.0.0.8:9222")).not.toBeNull();
      const rows = await store.db.selectFrom("browser_claims").selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain("secret");
      await first!.release();
      const second = await there.claim(URL_A);
      expect(second).not.toBeNull();
      await second!.release();
    } finally {
      await store.close();
    }
  });

  it("takes over a claim whose process stopped renewing it once it expired", async () => {
    const store = await stores.open();
    try {
      const dead = await new BrowserClaims(store.db).claim(URL_A);
      expect(dead).not.toBeNull();
      expect(await new BrowserClaims(store.db).claim(URL_A)).toBeNull();
      await store.db.updateTable("browser_claims").set({ expires_at: new Date(Date.now() - 1).toISOString() }).execute();
      const taken = await new BrowserClaims(store.db).claim(URL_A);
      expect(taken).not.toBeNull();
      // The dead holder's release, late, leaves the new claim alone.
      await dead!.release();
      expect(await new BrowserClaims(store.db).claim(URL_A)).toBeNull();
      await taken!.release();
    } finally {
      await store.close();
    }
  });

  it("tells the holder whose claim another process took over, at its next renewal", async () => {
    const store = await stores.open();
    try {
      let told = 0;
      const late = await new BrowserClaims(store.db).claim(URL_A, () => void told++);
      await store.db.updateTable("browser_claims").set({ expires_at: new Date(Date.now() - 1).toISOString() }).execute();
      const taken = await new BrowserClaims(store.db).claim(URL_A);
      expect(taken).not.toBeNull();
      await expect.poll(() => told, { timeout: 15_000, interval: 200 }).toBe(1);
      await late!.release();
      await taken!.release();
    } finally {
      await store.close();
    }
  }, 30_000);
});
