// Owns the one Chromium process that browser computers share, and the network fence it goes
// through. Each task gets its own isolated browser context from it; when Chromium dies the next
// `open` launches a new one. `attach` instead connects a task to a browser that runs elsewhere,
// over CDP — someone else's browser, which the fence does not cover.
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { redactUrl } from "../../core/cdp-endpoints.ts";
import { AppError } from "../../core/errors.ts";
import type { NetworkPolicy } from "../../core/network-policy.ts";
import { BrowserComputer, crashed, type BrowserComputerOptions } from "./browser-computer.ts";
import type { NetworkGate } from "../computer.ts";
import { Fence, judgeUrl } from "./fence.ts";
import { findChromium } from "./find-chromium.ts";
import { LaunchDir } from "./launch-dirs.ts";

// Without these, Chromium keeps trying to reach Google's services, which closed networks refuse.
const QUIET_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu",
  "--disable-dev-shm-usage",
];

/**
 * Chromium's sandbox keeps a compromised page's renderer from the rest of the machine. Chromium
 * refuses to start sandboxed as root, so there — and only there — it runs without.
 */
export const SANDBOXED = process.getuid?.() !== 0;

export interface BrowserHostOptions {
  chromePath?: string;
  headless: boolean;
  /** Where the browser may connect, read for every connection. */
  network: () => NetworkPolicy;
}

export class BrowserHost {
  private launching: Promise<Browser> | null = null;
  private fence: Promise<Fence> | null = null;
  /** Launch directories being removed as their browsers go: `close` waits for them. */
  private readonly removals = new Set<Promise<void>>();
  /** Local and private origins the person allowed while the server runs, besides ALLOWED_ORIGINS. */
  private readonly permitted = new Set<string>();
  private readonly gate: NetworkGate = {
    judge: (url) => judgeUrl(this.policy(), new URL(url)),
    permit: (origin) => void this.permitted.add(origin),
  };

  /**
   * An attached browser is the person's own and goes where they may go; only EasyAgentCU's own
   * server stays closed to the agent there, which the hands see through this gate.
   */
  readonly ownServerGate: NetworkGate = {
    judge: async (url) => {
      const verdict = await judgeUrl(this.policy(), new URL(url));
      return !verdict.allowed && verdict.own ? verdict : { allowed: true };
    },
    permit: () => undefined,
  };

  constructor(private readonly options: BrowserHostOptions) {}

  async open(options: BrowserComputerOptions): Promise<BrowserComputer> {
    const browser = await this.browser();
    try {
      return await BrowserComputer.create(browser, { ...options, gate: this.gate });
    } catch (error) {
      if (!browser.isConnected()) throw crashed(error);
      throw error;
    }
  }

  /**
   * Connects to a running browser's DevTools endpoint (`http://host:9222` or its `ws://` URL) and
   * drives the page with the given target id, or its first page.
   */
  async attach(cdpUrl: string, targetId: string | undefined, options: Pick<BrowserComputerOptions, "jpegQuality" | "navigationTimeoutMs" | "secrets">): Promise<BrowserComputer> {
    let browser: Browser;
    try {
      browser = await chromium.connectOverCDP(cdpUrl, { timeout: options.navigationTimeoutMs });
    } catch (error) {
      const why = String(error).split("\n")[0]!.replaceAll(cdpUrl, redactUrl(cdpUrl));
      throw new AppError("BROWSER_UNAVAILABLE", `Could not connect to the browser at ${redactUrl(cdpUrl)}: ${why}`, { cause: error });
    }
    try {
      const pages = browser.contexts().flatMap((context) => context.pages());
      const page = targetId ? await pageWithTarget(pages, targetId) : pages[0];
      if (!page) throw new AppError("INVALID_TARGET", `The browser at ${redactUrl(cdpUrl)} has no open page to drive.`);
      return await BrowserComputer.attach(browser, page, { ...options, gate: this.ownServerGate });
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    const launching = this.launching;
    this.launching = null;
    if (launching) await (await launching.catch(() => null))?.close().catch(() => undefined);
    await Promise.all(this.removals);
    const fence = this.fence;
    this.fence = null;
    if (fence) await (await fence.catch(() => null))?.close();
  }

  private browser(): Promise<Browser> {
    if (!this.launching) {
      const launching = this.launch();
      this.launching = launching;
      launching.then(
        (browser) =>
          browser.on("disconnected", () => {
            if (this.launching === launching) this.launching = null;
          }),
        () => {
          if (this.launching === launching) this.launching = null;
        },
      );
    }
    return this.launching;
  }

  private policy(): NetworkPolicy {
    const policy = this.options.network();
    return { ...policy, allowedOrigins: [...policy.allowedOrigins, ...this.permitted] };
  }

  private async launch(): Promise<Browser> {
    const executablePath = findChromium(this.options.chromePath);
    this.fence ??= Fence.start(() => this.policy());
    const fence = await this.fence;
    let dir: LaunchDir | undefined;
    let browser: Browser;
    try {
      dir = await LaunchDir.make();
      browser = await chromium.launch({ executablePath, headless: this.options.headless, chromiumSandbox: SANDBOXED, artifactsDir: dir.path, args: [...QUIET_ARGS, ...fence.chromiumArgs] });
    } catch (error) {
      await dir?.remove().catch(() => undefined);
      throw new AppError("BROWSER_UNAVAILABLE", `Could not start Chromium at ${executablePath}: ${String(error)}`, {
        cause: error,
      });
    }
    browser.on("disconnected", () => {
      const removal = dir.remove().catch(() => undefined);
      this.removals.add(removal);
      void removal.finally(() => this.removals.delete(removal));
    });
    // Without the note a profile outlives only a server killed with SIGKILL; the browser works all the same.
    await dir.noteProfile(browser).catch(() => undefined);
    return browser;
  }
}

/** The page whose DevTools target id is `targetId` (as /json/list names it). */
async function pageWithTarget(pages: Page[], targetId: string): Promise<Page> {
  const ids: string[] = [];
  for (const page of pages) {
    const session = await page.context().newCDPSession(page);
    try {
      const { targetInfo } = await session.send("Target.getTargetInfo");
      if (targetInfo.targetId === targetId) return page;
      ids.push(targetInfo.targetId);
    } finally {
      await session.detach().catch(() => undefined);
    }
  }
  throw new AppError("INVALID_TARGET", `No page with target id ${targetId}; the browser's pages are ${ids.join(", ") || "none"}.`);
}
