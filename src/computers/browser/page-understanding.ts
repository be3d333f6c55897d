// What an agent reads from a browser page besides pixels (seed 004 §4.2): the ARIA tree with element
// refs it can act on, the numbered DOM index, reader-mode text, and whether the page has loaded.
import { errors, type Locator, type Page } from "playwright-core";
import { AppError } from "../../core/errors.ts";

export { domIndex, xpathScan, CLICK_ID_ATTR, type Box, type DomElement, type ScannedElement, type Scope } from "./dom-index.ts";
export { readability, type ReadabilityResult } from "./readability.ts";

/**
 * The page's accessibility tree as YAML, every element tagged `[ref=e12]` (or `[ref=f1e3]` inside
 * an iframe; open shadow roots are included as if they were light DOM) and its box in the
 * viewport (`[box=x,y,width,height]`). An element keeps its ref from one tree to the next.
 * Playwright MCP's `browser_snapshot` is this text without boxes.
 * @example const { content } = await ariaTree(page); // "- button \"Send\" [ref=e7] [box=8,8,40,21]"
 */
export async function ariaTree(page: Page): Promise<{ content: string; url: string }> {
  return { content: await page.ariaSnapshot({ mode: "ai", boxes: true }), url: page.url() };
}

// Playwright's own format: an optional frame number, then the element's number within the frame.
const REF = /^(f\d+)?e\d+$/;

/**
 * The element a ref from {@link ariaTree} names. A malformed ref is refused at once, since
 * Playwright would otherwise wait for it until the action times out.
 * @example await locateRef(page, "f1e4").fill("hello");
 */
export function locateRef(page: Page, ref: string): Locator {
  if (!REF.test(ref)) {
    throw new AppError("INVALID_TARGET", `${JSON.stringify(ref)} is not an element ref; use a ref from the latest ARIA tree, such as e12 or f1e3.`);
  }
  return page.getByRef(ref);
}

/**
 * Locator code that finds the element again without the ref, e.g.
 * `getByRole('button', { name: 'Send' })`, for recording what was done; null when the element is
 * gone or the ref is stale.
 */
export async function describeLocator(locator: Locator): Promise<string | null> {
  try {
    return (await locator.normalize()).toString();
  } catch {
    return null;
  }
}

/**
 * Waits for the page's load event (document.readyState "complete"). A page still loading after
 * `timeoutMs` is not an error: the caller goes on with what is there and says so.
 */
export async function waitForLoaded(page: Page, timeoutMs: number): Promise<{ loaded: boolean }> {
  try {
    await page.waitForLoadState("load", { timeout: timeoutMs });
    return { loaded: true };
  } catch (error) {
    if (error instanceof errors.TimeoutError) return { loaded: false };
    throw error;
  }
}
