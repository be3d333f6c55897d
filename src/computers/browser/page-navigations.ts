// Navigations the screen's page asks for (a form posted, a link followed, a script that sets
// `location`): Chromium says so as the page asks (`Page.frameRequestedNavigation`), before the
// request leaves, while the request itself is heard only a moment later. Settling waits for such a
// navigation to end — loaded, or given up without a new document (a download, an empty answer,
// a dialog that asks first) — so that the screen after a click that posts is the page it led to.
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
      this.pending.get(frameId)?.end();
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const requested: Requested = { at: Date.now(), ended, end };
      void ended.then(() => this.pending.get(frameId) === requested && this.pending.delete(frameId));
      this.pending.set(frameId, requested);
    });
    const ended = mine((frameId) => this.pending.get(frameId)?.end());
    cdp.on("Page.frameRequestedNavigation", ({ frameId, disposition }) => {
      // A new tab or window is the page life's to follow; a download, the downloads'.
      if (disposition === "currentTab") asked(frameId);
    });
    // Loading stops once the new document has loaded, and once a navigation ends without one.
    cdp.on("Page.frameStoppedLoading", ({ frameId }) => ended(frameId));
    cdp.on("Page.navigatedWithinDocument", ({ frameId }) => ended(frameId));
    cdp.on("Page.frameDetached", ({ frameId }) => ended(frameId));
    cdp.on("Page.javascriptDialogOpening", () => this.endAll());
  }

  /** Resolves once every navigation asked for at or after `since` (Date.now()) has ended, or after `capMs`. */
  async ended(since: number, capMs: number): Promise<void> {
    const waiting = [...this.pending.values()].filter((requested) => requested.at >= since);
    if (waiting.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs)));
    await Promise.race([Promise.all(waiting.map((requested) => requested.ended)), cap]).finally(() => clearTimeout(timer));
  }

  private endAll(): void {
    for (const requested of this.pending.values()) requested.end();
    this.pending.clear();
  }
}
