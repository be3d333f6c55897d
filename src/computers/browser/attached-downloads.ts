// What becomes of the downloads of a browser attached to over CDP. Playwright, as it connects,
// has that browser save every download into a folder of its own on this machine
// (Browser.setDownloadBehavior `allowAndName`, events on) and removes the folder when it
// disconnects. A browser on this machine is left so while the task drives it, so its downloads are
// received as our own browser's are; one elsewhere could not write into that folder, so it keeps
// its own downloads folder from the start, and each download is told as not kept. Either is given
// its own folder back when the task lets go, not a folder that is gone.
import type { Browser } from "playwright-core";
import { redactUrl } from "../../core/cdp-endpoints.ts";

/** Whether a DevTools endpoint is on this machine: a loopback host. */
export function onThisMachine(cdpUrl: string): boolean {
  try {
    const host = new URL(cdpUrl).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** Why a download of the browser at `cdpUrl`, which is elsewhere, is not kept with the task. */
export function elsewhereReason(cdpUrl: string): string {
  return `the browser at ${redactUrl(cdpUrl)} runs on another machine, so EasyAgentCU cannot read its downloads; the file stays in that browser's own downloads folder`;
}

/** The browser saves its downloads where it would on its own again; with `events`, the task still hears each one begin. */
export async function giveBackDownloads(browser: Browser, events: boolean): Promise<void> {
  const session = await browser.newBrowserCDPSession();
  try {
    await session.send("Browser.setDownloadBehavior", { behavior: "default", eventsEnabled: events });
  } finally {
    await session.detach().catch(() => undefined);
  }
}
