// Which page is the screen, and its life: the page a task drives now, with one CDP session to it;
// popups and tabs that open, followed as they come, and the page before taking over when the screen
// closes; a renderer crash, watched per page; through the extension, the task's tab opened again.
// The computer asks it which page to act on and whether that page can still be acted on.
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { AppError } from "../../core/errors.ts";
import type { AttachOptions } from "./browser-options.ts";
import type { PageEffects } from "./page-effects.ts";
import { RequestedNavigations } from "./page-navigations.ts";
import type { Screencast } from "./screencast.ts";
import type { ContextTabs } from "./tabs.ts";

/** How long a window the screen opened may take to come as a page, and a switch to it to end. */
const ARRIVAL_CAP_MS = 5_000;

export interface PageLifeParts {
  browser: Browser;
  context: BrowserContext;
  /** Attached to someone else's browser (the person's Chrome, the extension's tab), or null: a context of our own. */
  attached: AttachOptions | null;
  kind: "browser" | "extension";
  effects: PageEffects;
  live: Screencast;
  /** The context's tabs, in a context of our own. */
  tabs(): ContextTabs | undefined;
  closed(): boolean;
}

export class PageLife {
  private current: Page;
  private session: CDPSession | undefined;
  /** Pages the screen asked to open (`Page.windowOpen`) that the context has not brought yet. */
  private readonly opening = new Set<Promise<unknown>>();
  /** Popups being switched to: settling waits for them. */
  private readonly following = new Set<Promise<void>>();
  /** The extension's count of pages shown in place of others when the page driven now was taken up. */
  private pageReplacements = 0;
  /** Pages watched for a renderer crash, and whether theirs crashed: Chromium's "sad tab" answers nothing. */
  private readonly renderers = new WeakMap<Page, "alive" | "crashed">();
  /** The navigations the screen's page asked for, in a context of our own. */
  readonly navigations = new RequestedNavigations();

  constructor(
    page: Page,
    private readonly parts: PageLifeParts,
  ) {
    this.current = page;
  }

  /** The screen's page. */
  get page(): Page {
    return this.current;
  }

  /** The CDP session to the screen's page (once `attach` made it). */
  get cdp(): CDPSession {
    return this.session!;
  }

  /** Whether the page's renderer crashed. */
  crashed(page = this.current): boolean {
    return this.renderers.get(page) === "crashed";
  }

  /** Makes `page` the screen: one CDP session at a time, the previous one detached. */
  async attach(page: Page): Promise<void> {
    const { context, attached, effects, live } = this.parts;
    const previous = this.current === page ? null : this.session;
    this.current = page;
    this.parts.tabs()?.shown(page);
    this.pageReplacements = attached?.replacements?.() ?? 0;
    if (!this.renderers.has(page)) {
      this.renderers.set(page, "alive");
      page.once("crash", () => this.renderers.set(page, "crashed"));
    }
    const cdp = await context.newCDPSession(page);
    this.session = cdp;
    if (previous) void previous.detach().catch(() => undefined);
    // In our own context every new page is the task's and is followed, and Chromium says a window
    // opens before its page can be; in a browser attached to (the person's Chrome, the extension's
    // one tab) a window may never come as a page of ours. Page events come only to a session that asks.
    if (!attached) {
      cdp.on("Page.javascriptDialogOpening", () => effects.hear("dialog"));
      cdp.on("Page.windowOpen", () => {
        if (cdp !== this.session) return;
        // Heard here, before the page arrives: the screen may already show it, or not yet.
        effects.hear("new_tab");
        const arriving = context
          .waitForEvent("page", { timeout: ARRIVAL_CAP_MS })
          .catch(() => undefined)
          .finally(() => this.opening.delete(arriving));
        this.opening.add(arriving);
      });
      this.navigations.follow(cdp);
      void cdp.send("Page.enable").catch(() => undefined);
    }
    await live.follow(cdp);
  }

  /**
   * A new page becomes the screen; in someone else's browser only a popup of the screen does, not a
   * tab the person opens. When the screen closes, the page it came from takes over (in our own
   * context, the tab that was the screen before it).
   */
  follow(page: Page): Promise<void> {
    const following = this.switchTo(page).finally(() => this.following.delete(following));
    this.following.add(following);
    return following;
  }

  /** Waits for the pages the last action opened, and for switches to them, each wait capped. */
  async arrived(): Promise<void> {
    if (this.opening.size > 0) await Promise.all(this.opening);
    if (this.following.size > 0) await Promise.race([Promise.all(this.following), new Promise((resolve) => setTimeout(resolve, ARRIVAL_CAP_MS))]);
  }

  /**
   * Before an operation: through the extension, waits for the task's tab that comes back as a new
   * page; and for a switch to a new page under way (a popup, the task tab opened again), since the
   * operation is for that page.
   */
  async ready(): Promise<void> {
    if (this.replaced() && this.following.size === 0) {
      await this.parts.context.waitForEvent("page", { timeout: ARRIVAL_CAP_MS }).catch(() => undefined);
    }
    if (this.following.size > 0) await Promise.race([Promise.all(this.following), new Promise((resolve) => setTimeout(resolve, ARRIVAL_CAP_MS))]);
  }

  /** Throws BROWSER_CRASHED (or what the attached browser says it lost) when the browser or the screen's renderer is gone. */
  assertAlive(cause: unknown): void {
    if (!this.parts.browser.isConnected()) throw this.parts.attached?.lost?.() ?? crashed(cause);
    if (this.crashed()) throw rendererCrashed(cause);
  }

  private async switchTo(page: Page): Promise<void> {
    const { attached } = this.parts;
    if (this.parts.closed()) return;
    // Only in someone else's browser is the opener asked for: our own context holds nothing
    // else, and the extra round trip would delay the switch to a popup.
    const opener = attached ? await page.opener().catch(() => null) : null;
    // Through the extension, a new page is also the task's tab opened again after the person closed it.
    const reopened = this.replaced();
    if (attached && opener !== this.current && !reopened) return;
    await page.waitForLoadState("domcontentloaded").catch(() => undefined);
    if (!page.isClosed()) await this.attach(page).catch(() => undefined);
    page.on("close", () => {
      const previous = attached ? opener : (this.parts.tabs()?.before(page) ?? null);
      if (!this.parts.closed() && this.current === page && previous && !previous.isClosed()) void this.attach(previous).catch(() => undefined);
    });
  }

  /**
   * Through the extension, whether the page driven is gone or about to be: the tab was opened again,
   * or shown afresh after the extension came back (Playwright may not have closed the old page yet).
   */
  private replaced(): boolean {
    return this.parts.kind === "extension" && (this.current.isClosed() || (this.parts.attached?.replacements?.() ?? 0) > this.pageReplacements);
  }
}

export function crashed(cause: unknown): AppError {
  return new AppError("BROWSER_CRASHED", "The browser closed unexpectedly.", { cause, retryable: true });
}

/** The browser lives on, but the process that drew the page is gone: nothing on it can be done any more. */
function rendererCrashed(cause: unknown): AppError {
  return new AppError("BROWSER_CRASHED", "The page's renderer crashed (it ran out of memory or its process was killed); the task cannot go on in that tab.", { cause, retryable: true });
}
