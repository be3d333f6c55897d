// The page's interactive elements as a numbered list (seed 004 §4.2 browser_dom_index and
// browser_xpath_scan): each with a label, a box, an XPath, and its number written onto the element
// so a later click can find it by attribute.
import type { Page } from "playwright-core";
import { scanDom, type Box, type Scope } from "../../injected/page-scan.ts";
import { CLICK_ID_ATTR } from "../../protocol/index.ts";

export { CLICK_ID_ATTR, type Box, type Scope };

export interface DomElement {
  clickId: number;
  tag: string;
  /** The ARIA role, or what the tag amounts to: button, link, textbox, checkbox… */
  role: string;
  text?: string;
  /** Null inside a shadow root, where XPath cannot reach. */
  xpath: string | null;
  bbox: Box;
}

export interface ScannedElement {
  xpath: string;
  tag: string;
  role: string;
  text?: string;
  /** The number {@link domIndex} gave the element, when it gave one. */
  clickId?: number;
  bbox: Box;
}

/**
 * Numbers the visible interactive elements 1..n in document order, open shadow roots included,
 * and writes each number into `assignAttr`; numbers from an earlier run are removed first. With
 * the viewport scope, an element hidden under a layer that paints over it (a dialog's backdrop) is
 * left out; one under a layer that paints nothing there (a transparent click catcher) is kept.
 * Same-origin iframes are left to the ARIA tree: their boxes and XPaths belong to another document.
 * @example const [first] = await domIndex(page); await page.click(`[${CLICK_ID_ATTR}="${first.clickId}"]`);
 */
export async function domIndex(page: Page, options: { scope?: Scope; assignAttr?: string } = {}): Promise<DomElement[]> {
  const { found } = await page.evaluate(scanDom, { mode: "index", scope: options.scope ?? "viewport", attr: options.assignAttr ?? CLICK_ID_ATTR } as const);
  return found.map(({ clickId, ...rest }) => ({ clickId: clickId!, ...rest }));
}

/**
 * The same elements plus headings and labels, light DOM only, each with an XPath; `clickId` is
 * read from `assignAttr` where {@link domIndex} wrote one.
 */
export async function xpathScan(page: Page, options: { scope?: Scope; assignAttr?: string } = {}): Promise<ScannedElement[]> {
  const { found } = await page.evaluate(scanDom, { mode: "scan", scope: options.scope ?? "viewport", attr: options.assignAttr ?? CLICK_ID_ATTR } as const);
  return found.map(({ xpath, ...rest }) => ({ xpath: xpath!, ...rest }));
}


/** The element under a point (CSS pixels), with its XPath and box: what a click there acted on. */
export async function elementAt(page: Page, x: number, y: number): Promise<Omit<ScannedElement, "xpath"> & { xpath: string | null } | null> {
  const { found } = await page.evaluate(scanDom, { mode: "at", scope: "viewport", attr: CLICK_ID_ATTR, points: [{ x, y }] } as const);
  return found[0] ?? null;
}

/**
 * For each point (CSS pixels), whether what is drawn there shows through a layer that hides it by
 * the Set-of-Mark's rule (a modal's backdrop): a control the pixels found there is out of reach.
 */
export async function behindLayers(page: Page, points: { x: number; y: number }[]): Promise<boolean[]> {
  const { behind } = await page.evaluate(scanDom, { mode: "behind", scope: "viewport", attr: CLICK_ID_ATTR, points } as const);
  return behind;
}
