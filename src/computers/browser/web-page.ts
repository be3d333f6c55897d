// The browser's BrowserPage (computers/computer.ts): the page's ARIA tree and reader text, and
// actions on elements by ref, on the page that is the screen at the moment. Boxes and points are
// screenshot pixels (CSS pixels × devicePixelRatio); every action has a bounded wait. What an
// action on an element risks is found in the frame that holds it (element-risks.ts).
import type { ElementHandle, Locator, Page } from "playwright-core";
import { AppError, firstLine } from "../../core/errors.ts";
import type { Secrets } from "../../core/secrets.ts";
import type { BrowserPage, ElementQuery, ElementTarget, ForeignFrame, PageTool, ReadabilityResult, RefAction, Risk } from "../computer.ts";
import { pageView, type PageView, type ViewRequest } from "../../perception/page-view/view.ts";
import { elementAt } from "./dom-index.ts";
import { boxInPage, deepElement, originOfHandle, risksInPageDocument, risksOfHandle, type RiskHow } from "./element-risks.ts";
import { locatorFromCode } from "./locator-code.ts";
import { callPageTool, pageTools } from "./page-tools.ts";
import { ariaTree, describeLocator, locateRef, readability, waitForLoaded } from "./page-understanding.ts";

const ACTION_TIMEOUT_MS = 10_000;
/** Addresses that are files to save rather than pages to show. */
const DOWNLOADS = /\.(pdf|zip|exe|dmg|msi|csv|xlsx?|docx?|pptx?|tar|gz|7z|rar|apk|iso)$/i;

/**
 * `target` with each of its methods run through `guard` (the computer's: a dead browser is
 * BROWSER_CRASHED, a page stuck in a loop PAGE_UNRESPONSIVE); the methods call one another
 * unguarded. WebPage's methods all work on the page, and all return promises.
 */
export function everyCallThrough<T extends object>(target: T, guard: <R>(operation: () => Promise<R>) => Promise<R>): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      return typeof value === "function" ? (...args: unknown[]) => guard(() => (value as (...a: unknown[]) => Promise<unknown>).apply(object, args)) : value;
    },
  });
}

export class WebPage implements BrowserPage {
  constructor(
    private readonly page: () => Page,
    /** devicePixelRatio: screenshot pixels per CSS pixel. */
    private readonly scale: number,
    private readonly navigationTimeoutMs: number,
    /** `%name%` placeholders, put in only here, where the page is typed into. */
    private readonly secrets: Secrets,
  ) {}

  async view(request: ViewRequest = {}): Promise<PageView & { url: string }> {
    const page = this.page();
    const [{ content, url }, title, viewport] = await Promise.all([
      ariaTree(page),
      page.title().catch(() => ""),
      page.viewportSize() ?? page.evaluate(() => ({ width: innerWidth, height: innerHeight })),
    ]);
    return { url, ...(await pageView(content, { url, title, viewport }, request)) };
  }

  async actOnRef(ref: string, action: RefAction): Promise<ElementTarget> {
    const locator = locateRef(this.page(), ref);
    // Found before acting: a click may take the element away.
    const target = await this.targetOf(locator).catch((error: unknown) => {
      throw new AppError("INVALID_TARGET", `The element ${ref} is not on the page any more (${firstLine(error)}); take a new ARIA tree.`);
    });
    await this.act(locator, action, ref);
    return target;
  }

  async locate(ref: string): Promise<{ target: ElementTarget; coveredBy: string | null }> {
    const locator = locateRef(this.page(), ref);
    try {
      await locator.scrollIntoViewIfNeeded({ timeout: ACTION_TIMEOUT_MS });
      const [target, cover] = await Promise.all([this.targetOf(locator), locator.evaluate(coverOf, undefined, { timeout: ACTION_TIMEOUT_MS })]);
      return { target: { ...target, box: this.inView(target.box) }, coveredBy: cover };
    } catch (error) {
      throw new AppError("INVALID_TARGET", `The element ${ref} is not on the page any more (${firstLine(error)}); take a new ARIA tree.`);
    }
  }

  async findTarget(target: ElementTarget, { scroll }: { scroll: boolean }): Promise<ElementTarget | null> {
    const locator = await this.locatorOf(target);
    if (!locator) return null;
    let box = await locator.boundingBox({ timeout: ACTION_TIMEOUT_MS });
    // Scrolled to only when it is not wholly in view: scrolling waits for the element to hold still.
    if (box && scroll && !this.wholly(box)) {
      await locator.scrollIntoViewIfNeeded({ timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
      box = await locator.boundingBox({ timeout: ACTION_TIMEOUT_MS });
    }
    // Found by the recording's own locator and XPath: only its place is new.
    return box ? { ...target, box: this.inView(this.toScreenshot(box)) } : null;
  }

  async actOnTarget(target: ElementTarget, action: RefAction): Promise<void> {
    const locator = await this.locatorOf(target);
    if (!locator) throw new AppError("INVALID_TARGET", `The recorded element ${target.locator ?? target.xpath} is not on the page.`);
    await this.act(locator, action, target.locator ?? target.xpath ?? "the element");
  }

  /** The one visible element a recording names: by its locator code first, then by its XPath. */
  private async locatorOf(target: ElementTarget): Promise<Locator | null> {
    const page = this.page();
    const candidates = [target.locator ? () => locatorFromCode(page, target.locator!) : null, target.xpath ? () => page.locator(`xpath=${target.xpath}`) : null];
    for (const make of candidates) {
      if (!make) continue;
      try {
        const locator = make();
        const [count, visible] = await Promise.all([locator.count(), locator.isVisible().catch(() => false)]);
        if (count === 1 && visible) return locator;
      } catch {
        // Code this reader does not take, or a frame that is gone: try the next way.
      }
    }
    return null;
  }

  private async act(locator: Locator, action: RefAction, what: string): Promise<void> {
    const timeout = { timeout: ACTION_TIMEOUT_MS };
    try {
      switch (action.kind) {
        case "click":
          await locator.click(timeout);
          break;
        case "fill": {
          const value = this.secrets.reveal(action.value);
          await locator.fill(value, timeout);
          if (value !== action.value) await locator.evaluate(maskSecret, undefined, timeout);
          break;
        }
        case "press":
          await locator.press(action.key, timeout);
          break;
        case "select":
          await locator.selectOption([{ label: action.value }, { value: action.value }], timeout).catch(() => locator.selectOption(action.value, timeout));
          break;
        case "check":
          await locator.setChecked(action.checked, timeout);
          break;
        case "hover":
          await locator.hover(timeout);
          break;
      }
    } catch (error) {
      throw new AppError("ACTION_FAILED", `${action.kind} on ${what} failed: ${firstLine(error)}`, { cause: error });
    }
  }

  readability(saveArtifact: (text: string) => Promise<string>): Promise<ReadabilityResult> {
    return readability(this.page(), { saveArtifact });
  }

  async waitForLoad(timeoutMs: number): Promise<boolean> {
    return (await waitForLoaded(this.page(), timeoutMs)).loaded;
  }

  async waitForText(text: string, timeoutMs: number): Promise<boolean> {
    try {
      await this.page().waitForFunction((wanted) => document.body?.innerText.includes(wanted) ?? false, text, { timeout: timeoutMs, polling: 100 });
      return true;
    } catch {
      return false;
    }
  }

  async goBack(): Promise<void> {
    const response = await this.page().goBack({ waitUntil: "load", timeout: this.navigationTimeoutMs });
    if (response === null && this.page().url() === "about:blank") throw new AppError("ACTION_FAILED", "There is no page to go back to.");
  }

  scrollBy(direction: "up" | "down" | "left" | "right", percentage: number): Promise<{ scrolledPixels: number }> {
    return this.page().evaluate(
      ({ direction, percentage }) => {
        const vertical = direction === "up" || direction === "down";
        const sign = direction === "up" || direction === "left" ? -1 : 1;
        const amount = (sign * (vertical ? innerHeight : innerWidth) * percentage) / 100;
        const before = vertical ? scrollY : scrollX;
        window.scrollBy({ left: vertical ? 0 : amount, top: vertical ? amount : 0, behavior: "instant" });
        return { scrolledPixels: Math.round(Math.abs((vertical ? scrollY : scrollX) - before)) };
      },
      { direction, percentage },
    );
  }

  async holdAt(x: number, y: number, ms: number): Promise<void> {
    const { mouse } = this.page();
    await mouse.move(x / this.scale, y / this.scale);
    await mouse.down();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await mouse.up();
  }

  async risksOf(element: ElementQuery, how: RiskHow): Promise<Risk[]> {
    // The element under a point, or the focused one, is read in one round trip unless a frame holds it.
    const point = element === "focused" ? null : "x" in element ? { x: element.x / this.scale, y: element.y / this.scale } : undefined;
    const here = point === undefined ? null : await risksInPageDocument(this.page(), point, how, DOWNLOADS);
    return Array.isArray(here) ? here : this.onElement(element, (found) => risksOfHandle(found, how, DOWNLOADS), []);
  }

  frameOf(element: ElementQuery): Promise<ForeignFrame | null> {
    return this.onElement(
      element,
      async (found) => {
        const origin = await originOfHandle(found);
        if (origin === safeUrl(this.page().url())?.origin) return null;
        const box = await boxInPage(found);
        return { origin, box: box ? this.toScreenshot(box) : null };
      },
      null,
    );
  }

  /** Blurs the focused field, in whichever frame it is: a secret was just typed into it. */
  async maskFocused(): Promise<void> {
    await this.onElement("focused", (found) => found.evaluate(maskSecret), undefined);
  }

  /**
   * Runs `work` on the element a query names, in the frame and open shadow root that holds it (the
   * element under a point, or the focused one, is followed into frames of any origin); `none` when
   * there is no such element.
   */
  private async onElement<T>(element: ElementQuery, work: (found: ElementHandle<Element>) => Promise<T>, none: T): Promise<T> {
    const found = await this.handleOf(element);
    if (!found) return none;
    try {
      return await work(found);
    } finally {
      await found.dispose().catch(() => undefined);
    }
  }

  private async handleOf(element: ElementQuery): Promise<ElementHandle<Element> | null> {
    const page = this.page();
    if (element === "focused") return deepElement(page, null);
    if ("ref" in element) return locateRef(page, element.ref).elementHandle({ timeout: ACTION_TIMEOUT_MS });
    if ("target" in element) return (await this.locatorOf(element.target))?.elementHandle({ timeout: ACTION_TIMEOUT_MS }) ?? null;
    return deepElement(page, { x: element.x / this.scale, y: element.y / this.scale });
  }

  async risksOfUrl(url: string): Promise<Risk[]> {
    const risks: Risk[] = [];
    const from = safeUrl(this.page().url());
    const to = safeUrl(url);
    if (to && DOWNLOADS.test(to.pathname)) risks.push({ kind: "download", message: `downloads ${to.pathname.split("/").pop()}` });
    if (from && to && /^https?:$/.test(from.protocol) && /^https?:$/.test(to.protocol) && from.origin !== to.origin) risks.push({ kind: "leave_site", message: `leaves ${from.origin} for ${to.origin}`, origin: to.origin });
    return risks;
  }

  pageTools(): Promise<PageTool[]> {
    return pageTools(this.page());
  }

  callPageTool(name: string, input: Record<string, unknown>): Promise<string> {
    return callPageTool(this.page(), name, input);
  }

  async targetAt(x: number, y: number): Promise<ElementTarget | null> {
    const found = await this.elementAt(x, y);
    return found && this.describeTarget(found);
  }

  async elementAt(x: number, y: number): Promise<ElementTarget | null> {
    const found = await elementAt(this.page(), x / this.scale, y / this.scale);
    if (!found) return null;
    const { x: bx, y: by, w, h } = found.bbox;
    return { locator: null, xpath: found.xpath, box: this.toScreenshot({ x: bx, y: by, width: w, height: h }) };
  }

  async describeTarget(found: ElementTarget): Promise<ElementTarget> {
    return { ...found, locator: found.xpath ? await describeLocator(this.page().locator(`xpath=${found.xpath}`)) : null };
  }

  /** Where the element is and how to find it again: its locator code, and the XPath of what is at its centre. */
  private async targetOf(locator: Locator): Promise<ElementTarget> {
    const box = await locator.boundingBox({ timeout: ACTION_TIMEOUT_MS });
    const at = box ? await elementAt(this.page(), box.x + box.width / 2, box.y + box.height / 2) : null;
    return { locator: await describeLocator(locator), xpath: at?.xpath ?? null, box: box ? this.toScreenshot(box) : null };
  }

  /** Whether a box in CSS pixels lies wholly inside the viewport. */
  private wholly(box: { x: number; y: number; width: number; height: number }): boolean {
    const viewport = this.page().viewportSize();
    return !!viewport && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
  }

  /** The part of a box (screenshot pixels) that is in view, so that its centre can be clicked. */
  private inView(box: ElementTarget["box"]): ElementTarget["box"] {
    const viewport = this.page().viewportSize();
    if (!box || !viewport) return box;
    const [width, height] = [viewport.width * this.scale, viewport.height * this.scale];
    const x = Math.max(box.x, 0);
    const y = Math.max(box.y, 0);
    const right = Math.min(box.x + box.width, width);
    const bottom = Math.min(box.y + box.height, height);
    return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : box;
  }

  private toScreenshot(box: { x: number; y: number; width: number; height: number }): ElementTarget["box"] {
    const s = this.scale;
    return { x: Math.round(box.x * s), y: Math.round(box.y * s), width: Math.round(box.width * s), height: Math.round(box.height * s) };
  }
}

/**
 * Runs in the page on a field a secret was typed into: it is blurred from now on, so that no
 * screenshot — stored, live or sent to the model — shows what it holds.
 */
function maskSecret(element: Element): void {
  element.setAttribute("data-easyagentcu-secret", "");
  (element as HTMLElement).style.setProperty("filter", "blur(8px)", "important");
}

// Runs in the page on the element: what covers the centre of its part in view (a sticky header,
// a dialog), described as a person would see it; null when the element itself is there.
function coverOf(element: Element): string | null {
  const box = element.getBoundingClientRect();
  const left = Math.max(box.left, 0);
  const right = Math.min(box.right, innerWidth);
  const top = Math.max(box.top, 0);
  const bottom = Math.min(box.bottom, innerHeight);
  if (right <= left || bottom <= top) return "the edge of the view";
  const root = element.getRootNode() as Document | ShadowRoot;
  const under = root.elementFromPoint((left + right) / 2, (top + bottom) / 2);
  if (!under || under === element || element.contains(under)) return null;
  const name = (under.getAttribute("aria-label") ?? (under as HTMLElement).innerText ?? "").trim().slice(0, 40);
  return `<${under.localName}>${name ? ` "${name}"` : ""}`;
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
