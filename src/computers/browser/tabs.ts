// The tabs of a browser context of the task's own: every page the context opens is a tab, named
// `tab_1`, `tab_2`… in the order they came, and remembered in the order they were the screen, so
// that a closed tab hands the screen back to the one the agent had before it. Which page is the
// screen, and how it becomes it, stay the computer's (browser-computer.ts `attach`).
import type { BrowserContext, Page } from "playwright-core";
import { AppError } from "../../core/errors.ts";
import type { BrowserTabs, TabInfo } from "../computer.ts";

/** What the tabs need of the computer whose screen they change. */
export interface TabScreen {
  /** The page every action, capture and live frame uses now. */
  current(): Page;
  /** Makes `page` the screen, once any switch under way (a popup followed) is done. */
  show(page: Page): Promise<void>;
  /** Opens an address on the screen, as every navigation of the computer does. */
  navigate(url: string): Promise<void>;
  /** Runs a browser operation guarded as the computer's own are (a crashed browser reads as such). */
  guard<T>(operation: () => Promise<T>): Promise<T>;
}

export class ContextTabs implements BrowserTabs {
  private readonly ids = new WeakMap<Page, string>();
  private opened = 0;
  /** Open pages, the one most recently the screen last. */
  private recent: Page[] = [];

  constructor(
    private readonly context: BrowserContext,
    private readonly screen: TabScreen,
  ) {
    for (const page of context.pages()) this.idOf(page);
    context.on("page", (page) => {
      this.idOf(page);
      page.once("close", () => (this.recent = this.recent.filter((p) => p !== page)));
    });
  }

  /** Told each time a page becomes the screen. */
  shown(page: Page): void {
    this.idOf(page);
    this.recent = [...this.recent.filter((p) => p !== page), page];
  }

  /** The open page that was the screen most recently, other than `page`: the one that takes over when `page` closes. */
  before(page: Page): Page | null {
    const open = this.pages().filter((p) => p !== page);
    return [...this.recent].reverse().find((p) => open.includes(p)) ?? open.at(-1) ?? null;
  }

  list(): Promise<TabInfo[]> {
    return this.screen.guard(() => Promise.all(this.pages().map((page) => this.infoOf(page))));
  }

  async open(url: string | null): Promise<TabInfo> {
    const page = await this.screen.guard(() => this.context.newPage());
    await this.screen.show(page);
    if (url) await this.screen.navigate(url);
    return this.screen.guard(() => this.infoOf(page));
  }

  async switchTo(id: string): Promise<TabInfo> {
    const page = this.find(id);
    await this.screen.guard(() => page.bringToFront());
    await this.screen.show(page);
    return this.screen.guard(() => this.infoOf(page));
  }

  async close(id: string): Promise<TabInfo[]> {
    const page = this.find(id);
    const next = this.before(page);
    if (!next) throw new AppError("ACTION_FAILED", `${id} is the only tab, and the browser keeps one open: open another address in it instead.`);
    if (page === this.screen.current()) await this.switchTo(this.idOf(next));
    await this.screen.guard(() => page.close());
    return this.list();
  }

  private pages(): Page[] {
    return this.context.pages().filter((page) => !page.isClosed());
  }

  private find(id: string): Page {
    const page = this.pages().find((p) => this.idOf(p) === id);
    if (page) return page;
    const open = this.pages().map((p) => this.idOf(p));
    throw new AppError("INVALID_TARGET", `There is no tab ${JSON.stringify(id)}; the open tabs are ${open.join(", ")} (list them to see what each shows).`);
  }

  private idOf(page: Page): string {
    let id = this.ids.get(page);
    if (!id) {
      id = `tab_${++this.opened}`;
      this.ids.set(page, id);
    }
    return id;
  }

  private async infoOf(page: Page): Promise<TabInfo> {
    const title = await page.title().catch(() => "");
    return { id: this.idOf(page), title, url: page.url(), active: page === this.screen.current() };
  }
}
