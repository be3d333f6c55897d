// Keeps the downloads of a browser context of our own, or of a browser attached to over CDP
// (attached-downloads.ts): each one is offered to the task as it begins (computer.ts IncomingFile), saved where the task keeps it once complete, and cancelled as
// soon as it grows past the task's cap. Playwright gives the file; how far it has come is heard at
// the protocol (`Page.downloadProgress`), on a session of this room's own for each page.
import { rm, stat } from "node:fs/promises";
import type { BrowserContext, Download, Page } from "playwright-core";
import { firstLine } from "../../core/errors.ts";
import type { IncomingFile, SavedFile } from "../computer.ts";

/** How far one download has come, by the guid Chromium gave it. */
interface Progress {
  url: string;
  name: string;
  received: number;
  /** Null while the server has not said (no Content-Length). */
  total: number | null;
  /** Matched to the download Playwright made for it. */
  claimed: boolean;
  /** Called on every change, by the download that watches it. */
  changed?: () => void;
}

export class PageDownloads {
  private readonly listeners = new Set<(file: IncomingFile) => void>();
  private readonly progress = new Map<string, Progress>();
  constructor(
    private readonly context: BrowserContext,
    /** Why this browser's downloads cannot be kept (it runs on another machine): each is offered as failing so. */
    private readonly elsewhere: string | null = null,
  ) {
    context.on("page", (page) => void this.watch(page));
    for (const page of context.pages()) void this.watch(page);
  }

  /** `listener` hears every download that begins from now on; returns a function that stops. */
  receive(listener: (file: IncomingFile) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private async watch(page: Page): Promise<void> {
    // The download event comes before the page's session could report progress: listen first.
    page.on("download", (download) => this.offer(download));
    const session = await this.context.newCDPSession(page).catch(() => null);
    if (!session) return;
    session.on("Page.downloadWillBegin", ({ guid, url, suggestedFilename }) => {
      this.progress.set(guid, { url, name: suggestedFilename, received: 0, total: null, claimed: false });
    });
    session.on("Page.downloadProgress", ({ guid, receivedBytes, totalBytes }) => {
      const known = this.progress.get(guid);
      if (!known) return;
      known.received = receivedBytes;
      if (totalBytes > 0) known.total = totalBytes;
      known.changed?.();
    });
    await session.send("Page.enable").catch(() => undefined);
  }

  private offer(download: Download): void {
    const { elsewhere } = this;
    const file: IncomingFile = {
      name: download.suggestedFilename(),
      saveAs: async (target, maxBytes) => (elsewhere ? { type: "failed", reason: elsewhere } : this.save(download, target, maxBytes)),
    };
    for (const listener of this.listeners) listener(file);
  }

  private async save(download: Download, target: string, maxBytes: number): Promise<SavedFile> {
    const progress = this.claim(download);
    const tooLarge = new Promise<SavedFile>((resolve) => {
      if (!progress) return;
      const check = () => {
        const size = Math.max(progress.received, progress.total ?? 0);
        if (size <= maxBytes) return;
        progress.changed = undefined;
        void download.cancel().catch(() => undefined);
        resolve({ type: "too_large", size: progress.received });
      };
      progress.changed = check;
      check();
    });
    const saved = download.saveAs(target).then(
      async (): Promise<SavedFile> => {
        // Without the protocol's word (a page whose session could not open), the finished file is measured.
        const { size } = await stat(target);
        if (size <= maxBytes) return { type: "kept", size };
        await rm(target, { force: true });
        return { type: "too_large", size };
      },
      async (error: unknown): Promise<SavedFile> => ({ type: "failed", reason: (await download.failure().catch(() => null)) ?? firstLine(error) }),
    );
    return Promise.race([tooLarge, saved]);
  }

  /** The progress Chromium reports for this download: the oldest unclaimed one with its address and name. */
  private claim(download: Download): Progress | null {
    for (const progress of this.progress.values()) {
      if (progress.claimed || progress.url !== download.url() || progress.name !== download.suggestedFilename()) continue;
      progress.claimed = true;
      return progress;
    }
    return null;
  }
}
