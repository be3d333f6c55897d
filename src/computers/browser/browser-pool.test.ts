// A task waiting for a browser that is stopped gives up its place at once: its wait for one of
// BROWSER_CDP_URLS ends with the stop, and the browser given back later goes to a task that still
// waits; BROWSER_CDP_COMMAND's session being made is ended. An address with a user and password
// (a browser service's) is checked with them, as Basic authorization.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRemote, type Remote } from "../../../test/support/remote-chromium.ts";
import { useStores } from "../../../test/support/stores.ts";
import { BrowserClaims } from "../../store/browser-claims.ts";
import { EndpointLeases } from "./browser-pool.ts";
import { commandLease } from "./cdp-command.ts";

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

  it("ends a command still making its session, when its task is stopped", async () => {
    const stop = new AbortController();
    const making = commandLease("echo started >&2; exec sleep 30", 60_000, stop.signal);
    setTimeout(() => stop.abort(new Error("stopped by the person")), 300);
    const began = Date.now();
    await expect(making).rejects.toThrow("stopped by the person");
    expect(Date.now() - began).toBeLessThan(5_000);
  });
});

describe("an address with a user and password", () => {
  const stores = useStores("sqlite");

  it("is checked with them and leased, not passed over as down", async () => {
    const store = await stores.open();
    try {
      const claims = new BrowserClaims(store.db);
      const downs: string[] = [];
      const withUser = remote.url.replace("http://", "http://agent:s3cret@");
      const pool = new EndpointLeases([withUser], 1_000, { onDown: (_endpoint, why) => void downs.push(why), claim: (url) => claims.claim(url) });
      const lease = await pool.lease();
      expect(lease.url).toBe(withUser);
      expect(downs).toEqual([]);
      await lease.release();
    } finally {
      await store.close();
    }
  });
});
