// Settling after an action: waits on what it set off, each wait capped and none when there is
// nothing to wait for — the page's load, its DOM changes, a navigation it asked for, the requests
// it started, a popup it opened. No frame is waited for: a capture draws a fresh one.
import type { Page } from "playwright-core";
import type { PageActivity } from "./page-activity.ts";

const SETTLE_CAP_MS = 5_000;
const NETWORK_QUIET_CAP_MS = 2_000;
const DOM_QUIET_CAP_MS = 250;

/**
 * `inputAt`: when the action's input started (Date.now()); `navigated`: ends once the navigations
 * the page asked for since then ended (page-navigations.ts); `arrived`: a popup it opened became the screen.
 */
export async function settlePage(page: Page, activity: PageActivity, inputAt: number, navigated: (since: number, capMs: number) => Promise<void>, arrived: () => Promise<void>): Promise<void> {
  await page.waitForLoadState("load", { timeout: SETTLE_CAP_MS }).catch(() => undefined);
  // The DOM first: its round trip to the page also brings in the requests the action's handlers
  // started (a form's fetch), which the network wait would otherwise not know of yet.
  await activity.domQuiet(page, DOM_QUIET_CAP_MS);
  // A form it posted, a link it followed: until that page has loaded, the screen is the one before.
  // And one the page asked for once loaded (a refresh to where it leads), while the network settled:
  // both within one cap.
  const navigationsUntil = Date.now() + SETTLE_CAP_MS;
  await navigated(inputAt, navigationsUntil - Date.now());
  await activity.networkQuiet(inputAt, NETWORK_QUIET_CAP_MS);
  await navigated(inputAt, navigationsUntil - Date.now());
  // A popup the action opened becomes the screen before anything else looks at it; each wait is capped.
  await arrived();
}
