// A task waiting for a browser of BROWSER_CDP_URLS that is stopped gives up its place at once: its
// wait ends with the stop, and the browser given back later goes to a task that still waits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRemote, type Remote } from "../../../test/support/remote-chromium.ts";
import { useStores } from "../../../test/support/stores.ts";
import { BrowserClaims } from "../../store/browser-claims.ts";
import { EndpointLeases } from "./browser-pool.ts";

let remote: Remote;
beforeAll(async () => {
  remote = await startRemote();
});
afterAll(() => {
  remote?.process.kill();
});

describe("a wait for a browser", () => {
  const stores = useStores("sqlite");

  it("ends when its task is stopped, and the browser given back goes to the task still waiting", async () => {
    const store = await stores.open();
    try {
      const claims = new BrowserClaims(store.db);
      const pool = new EndpointLeases([remote.url], 30_000, { onDown: () => undefined, claim: (url) => claims.claim(url) });
      const first = await pool.lease();
      const stop = new AbortController();
      const stopped = pool.lease(stop.signal);
      const waiting = pool.lease();
      const began = Date.now();
      stop.abort(new Error("stopped by the person"));
      await expect(stopped).rejects.toThrow("stopped by the person");
      expect(Date.now() - began).toBeLessThan(1_000);
      await first.release();
      const next = await waiting;
      expect(next.url).toBe(remote.url);
      await next.release();
    } finally {
      await store.close();
    }
  });
});
