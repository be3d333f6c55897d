// The agent's browser makes no connection of its own (issue 31): Chromium's background services
// (its updater, Google accounts, and the like) reach nothing, while its pages still go through the
// network fence. With a blank page open for a while, the fence is asked about no connection at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserHost } from "../../src/computers/browser/browser-host.ts";
import { fixtureOrigins, startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
beforeAll(async () => {
  pages = await startFixtureServer();
});
afterAll(async () => {
  await pages?.close();
});

describe("the agent's browser, left alone", () => {
  it("connects nowhere by itself, and its pages still go through the fence", async () => {
    // The fence reads the policy for every connection it is asked to make.
    let asked = 0;
    const host = new BrowserHost({
      headless: true,
      network: () => {
        asked++;
        return { allowedOrigins: fixtureOrigins(), blockedDomains: [], allowedDomains: [], serverPorts: new Set(), localAddresses: [] };
      },
    });
    try {
      const computer = await host.open({ width: 1280, height: 800, jpegQuality: 80, navigationTimeoutMs: 10_000 });
      // Chromium asked its updater and Google's accounts service within seconds of starting.
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      expect(asked).toBe(0);
      await computer.navigate(pages.url("form.html"));
      expect(asked).toBeGreaterThan(0);
      await computer.close();
    } finally {
      await host.close();
    }
  }, 60_000);
});
