// Navigations the screen's page asks for (a form posted, a link followed, a script that sets
// `location`): Chromium says so as the page asks (`Page.frameRequestedNavigation`), before the
// request leaves, while the request itself is heard only a moment later. Settling waits for such a
// navigation to end — loaded, or given up without a new document (a download, an empty answer, a
// `beforeunload` the person's page was told to stay for) — so that the screen after a click that
// posts is the page it led to. A page that asks again on its way (a script that redirects as it
// loads) is waited for until the last page it asked for has ended.
import type { CDPSession } from "playwright-core";

interface Requested {
  at: number;
  ended: Promise<void>;
  end: () => void;
}

export class RequestedNavigations {
  /** By frame: the last navigation each frame asked for that has not ended. */
  private readonly pending = new Map<string, Requested>();
  private session: CDPSession | null = null;

  /** Listens to the screen's page through `cdp` (whose Page domain is enabled); what the page before asked for is forgotten. */
  follow(cdp: CDPSession): void {
    this.endAll();
    this.session = cdp;
    const mine = (listener: (frameId: string) => void) => (frameId: string) => {
      if (this.session === cdp) listener(frameId);
    };
    const asked = mine((frameId) => {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const requested: Requested = { at: Date.now(), ended, end };
      // The navigation before it, if still under way, ends with this one: it led here.
      const before = this.pending.get(frameId);
      if (before) void ended.then(before.end);
      void ended.then(() => this.pending.get(frameId) === requested && this.pending.delete(frameId));
      this.pending.set(frameId, requested);
    });
    const stopped = mine((frameId) => this.pending.get(frameId)?.end());
    cdp.on("Page.frameRequestedNavigation", ({ frameId, disposition }) => {
      // A new tab or window is the page life's to follow; a download, the downloads'.
      if (disposition === "currentTab") asked(frameId);
    });
    // Loading stops once the new document has loaded, and once a navigation ends without one.
    cdp.on("Page.frameStoppedLoading", ({ frameId }) => stopped(frameId));
    cdp.on("Page.navigatedWithinDocument", ({ frameId }) => stopped(frameId));
    cdp.on("Page.frameDetached", ({ frameId }) => stopped(frameId));
    // A `beforeunload` answered "stay": the navigation it asked about does not happen. Other dialogs
    // (an alert as the page goes) leave it going.
    let asking: string | null = null;
    cdp.on("Page.javascriptDialogOpening", ({ type }) => (asking = type));
    cdp.on("Page.javascriptDialogClosed", ({ result }) => {
      if (this.session === cdp && asking === "beforeunload" && !result) this.endAll();
      asking = null;
    });
  }

  /**
   * Resolves once every navigation asked for at or after `since` (Date.now()) has ended — those asked
   * for while it waited too — or after `capMs`.
   */
  async ended(since: number, capMs: number): Promise<void> {
    const deadline = Date.now() + capMs;
    for (;;) {
      const waiting = [...this.pending.values()].filter((requested) => requested.at >= since);
      const left = deadline - Date.now();
      if (waiting.length === 0 || left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([Promise.all(waiting.map((requested) => requested.ended)), cap]).finally(() => clearTimeout(timer));
    }
  }

  private endAll(): void {
    for (const requested of this.pending.values()) requested.end();
    this.pending.clear();
  }
}
