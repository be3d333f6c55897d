// Our browser computer without the app around it, fenced to the fixture pages' origins: for tests
// and benchmarks that drive a BrowserComputer directly.
import type { BrowserComputer } from "../../src/computers/browser/browser-computer.ts";
import { BrowserHost } from "../../src/computers/browser/browser-host.ts";
import { fixtureOrigins } from "./fixture-server.ts";

/** A headless host whose network fence lets its pages open the fixture servers of this process. */
export function fixtureHost(): BrowserHost {
  return new BrowserHost({ headless: true, network: () => ({ allowedOrigins: fixtureOrigins(), blockedDomains: [], allowedDomains: [], serverPorts: new Set(), localAddresses: [] }) });
}

/** A screen of `width`×`height` on `host`, set up as a task's is. */
export function openScreen(host: BrowserHost, width = 1280, height = 800): Promise<BrowserComputer> {
  return host.open({ width, height, jpegQuality: 80, navigationTimeoutMs: 10_000 });
}

/** Runs `work` on a 1280×800 screen of a host of its own, both closed after. */
export async function onFixtureScreen(work: (computer: BrowserComputer) => Promise<void>): Promise<void> {
  const host = fixtureHost();
  try {
    const computer = await openScreen(host);
    try {
      await work(computer);
    } finally {
      await computer.close();
    }
  } finally {
    await host.close();
  }
}
