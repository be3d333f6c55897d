// A capture of a page's viewport over CDP, in device pixels: tried again while the page has no frame
// to give (a new tab, a new document), given up on a frame that never comes, and a page that draws
// nothing for long is PAGE_UNRESPONSIVE — its renderer stuck in a loop, which the agent cannot see.
import type { CDPSession, Page } from "playwright-core";
import { pageUnresponsive } from "./page-watchdog.ts";

export type CaptureFormat = { format: "jpeg" | "png"; quality?: number; optimizeForSpeed?: boolean };

/** How long one try may wait for a frame, how many tries, and how long the page may give none before it counts as unresponsive. */
export interface CaptureLimits {
  timeoutMs: number;
  attempts: number;
  unresponsiveAfterMs?: number;
}

/**
 * A step's screenshot. A capture asked for while the page changes documents (a form that navigates)
 * can wait for a frame that never comes: after 3 s it is tried again; several tries, 15 s in all, far
 * more than a page that only changes documents takes, and the page counts as unresponsive.
 */
export const STEP_CAPTURE: CaptureLimits = { timeoutMs: 3_000, attempts: 5, unresponsiveAfterMs: 15_000 };

/**
 * A PNG of the viewport in device pixels is slow to encode (at devicePixelRatio 2, four million
 * pixels: half a second on a busy 2-core machine, more under a full test run): it gets longer, and a
 * PNG that took 10 s is a stalled page more likely than a frame not painted yet: one more try.
 */
export const LOSSLESS_CAPTURE: CaptureLimits = { timeoutMs: 10_000, attempts: 2 };

/** A capture tried again waits this long at most for the page's next frames. */
const FRAME_WAIT_CAP_MS = 1_000;
/** How long a page that had no frame may take to load before the next try. */
const LOAD_WAIT_CAP_MS = 5_000;

export async function captureViewport(
  page: Page,
  cdp: CDPSession,
  format: CaptureFormat,
  limits: CaptureLimits,
  options: { deviceScaleFactor: number; crashed: () => boolean },
): Promise<Buffer> {
  const boundMs = limits.unresponsiveAfterMs ?? Infinity;
  const deadline = Date.now() + boundMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await withinTimeout(cdp.send("Page.captureScreenshot", { ...format, ...(await deviceClip(cdp, options.deviceScaleFactor)) }), Math.min(limits.timeoutMs, deadline - Date.now()));
      return Buffer.from(data, "base64");
    } catch (error) {
      if (Date.now() >= deadline && !options.crashed()) throw pageUnresponsive(`it drew nothing for ${boundMs / 1000} s`, error);
      // A page that has not painted its first frame yet (a new tab, a new document) has
      // nothing to capture; once it has loaded, the next animation frame has.
      if (attempt >= limits.attempts || !String(error).includes("Unable to capture screenshot")) throw error;
      await page.waitForLoadState("load", { timeout: LOAD_WAIT_CAP_MS }).catch(() => undefined);
      await nextFrame(page);
    }
  }
}

/** Two of the page's animation frames, or a second at most: a page that draws none (hidden) never calls back. */
async function nextFrame(page: Page): Promise<void> {
  const frames = page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))).catch(() => undefined);
  await Promise.race([frames, new Promise((resolve) => setTimeout(resolve, FRAME_WAIT_CAP_MS).unref())]);
}

/**
 * Chromium captures in CSS pixels unless a clip asks for a scale; at a devicePixelRatio other
 * than 1 we ask for device pixels, as a screen capture would have them. The clip is in document
 * coordinates, so it follows the scroll position.
 */
async function deviceClip(cdp: CDPSession, scale: number): Promise<{ clip?: { x: number; y: number; width: number; height: number; scale: number } }> {
  if (scale === 1) return {};
  const { cssVisualViewport: v } = await cdp.send("Page.getLayoutMetrics");
  return { clip: { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight, scale } };
}

function withinTimeout<T>(capture: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Unable to capture screenshot: no frame within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  capture.catch(() => undefined);
  return Promise.race([capture, late]).finally(() => clearTimeout(timer));
}
