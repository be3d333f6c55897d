// What an action set off in the browser that its screen need not show, heard at the protocol: a
// download that began, a page or tab that opened, a dialog (an alert, a confirm, a prompt, a
// beforeunload, a file chooser), a navigation, a request that changes something. Only heard,
// never answered: dialogs are still dismissed and downloads still kept as Playwright does by
// default; a file chooser is held open until an upload fills it (file-upload.ts).
import type { BrowserContext, FileChooser, Page, Request } from "playwright-core";
import type { QuietEffect } from "../computer.ts";

/**
 * The request header a page sets to mark a request as its answer to the action (a GET that
 * records something, which its method alone would not tell): any value counts.
 */
export const EFFECT_HEADER = "x-agent-effect";

/** Methods that only read: a request by one of them changes nothing unless the page marks it. */
const READING = new Set(["GET", "HEAD", "OPTIONS"]);

/** Most telling first, as `StructuralEffect.quiet` lists them. */
const ORDER: readonly QuietEffect[] = ["download", "new_tab", "dialog", "navigation", "request"];

/** How many of each kind were heard: a mark taken before an action, compared after it. */
export type EffectMark = Readonly<Record<QuietEffect, number>>;

export class PageEffects {
  private readonly heard: Record<QuietEffect, number> = { download: 0, new_tab: 0, dialog: 0, navigation: 0, request: 0 };
  /** The file chooser each page opened last that no upload has filled yet. */
  private readonly choosers = new WeakMap<Page, FileChooser>();

  /** Whether file choosers are heard (and so held) now. */
  private holding: boolean;

  /**
   * `chooser`: hear file choosers too. Playwright takes a page's file chooser over once anyone
   * listens for it, so only a browser the agent drives is asked: a person's Chrome attached to
   * keeps its own, and the extension's tab lets go of them while the person has it (`holdChoosers`).
   */
  constructor(
    private readonly context: BrowserContext,
    chooser: boolean,
  ) {
    this.holding = chooser;
    context.on("page", (page) => {
      this.hear("new_tab");
      this.watch(page);
    });
    for (const page of context.pages()) this.watch(page);
    context.on("request", (request) => {
      if (changesSomething(request)) this.hear("request");
    });
  }

  /**
   * Counts one effect. Dialogs come from the screen's CDP session: a Playwright listener for them
   * would have to answer each one itself.
   */
  hear(kind: QuietEffect): void {
    this.heard[kind]++;
  }

  mark(): EffectMark {
    return { ...this.heard };
  }

  /** What was heard since `mark`, each kind once, most telling first. */
  since(mark: EffectMark): QuietEffect[] {
    return ORDER.filter((kind) => this.heard[kind] > mark[kind]);
  }

  private watch(page: Page): void {
    page.on("download", () => this.hear("download"));
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) this.hear("navigation");
    });
    if (this.holding) page.on("filechooser", this.chooserOpened);
  }

  /** Holds the file choosers the pages open from now on (an upload fills them), or leaves them to the browser's own dialog. */
  holdChoosers(on: boolean): void {
    if (on === this.holding) return;
    this.holding = on;
    for (const page of this.context.pages()) {
      if (on) page.on("filechooser", this.chooserOpened);
      else page.off("filechooser", this.chooserOpened);
    }
  }

  private readonly chooserOpened = (chooser: FileChooser): void => {
    this.choosers.set(chooser.page(), chooser);
    this.hear("dialog");
  };

  /** The file chooser `page` has open, taken so that one upload fills it; null when none is. */
  takeChooser(page: Page): FileChooser | null {
    const chooser = this.choosers.get(page) ?? null;
    this.choosers.delete(page);
    return chooser;
  }
}

/** Each kind once, most telling first. */
export function inOrder(kinds: readonly QuietEffect[]): QuietEffect[] {
  return ORDER.filter((kind) => kinds.includes(kind));
}

function changesSomething(request: Request): boolean {
  return !READING.has(request.method()) || request.headers()[EFFECT_HEADER] !== undefined;
}
