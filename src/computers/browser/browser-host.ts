// Owns the one Chromium process that browser computers share, and the network fence it goes
// through. Each task gets its own isolated browser context from it, opened while the task before
// ran (a spare, used once); when Chromium dies the next `open` launches a new one. `attach`
// instead connects a task to a browser that runs elsewhere, over CDP — someone else's browser,
// which the fence does not cover. With a pool (BROWSER_CDP_URLS, BROWSER_CDP_COMMAND), `open`
// leases a browser that runs elsewhere instead of launching one, and opens the task's context there
// behind the fence as in our own. What a chat's tasks are signed in to passes from one to the next
// (sign-ins.ts).
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { redactUrl } from "../../core/cdp-endpoints.ts";
import { AppError } from "../../core/errors.ts";
import type { NetworkPolicy } from "../../core/network-policy.ts";
import type { BrowserLeases } from "./browser-pool.ts";
import { elsewhereReason, giveBackDownloads, onThisMachine } from "./attached-downloads.ts";
import { BrowserComputer } from "./browser-computer.ts";
import type { BrowserComputerOptions } from "./browser-options.ts";
import { crashed } from "./page-life.ts";
import type { NetworkGate } from "../computer.ts";
import { Fence, judgeUrl, type ContextProxy } from "./fence.ts";
import { findChromium } from "./find-chromium.ts";
import { LaunchDir } from "./launch-dirs.ts";
import { SignIns, type SignInKeeper, type SignInWrite } from "./sign-ins.ts";

/**
 * How long a task waits for a spare still being opened (it takes about a quarter of a second). One
 * that takes longer — its renderer was killed as it started, say — is left to close when it comes.
 */
const SPARE_WAIT_MS = 5_000;

// Without these, Chromium keeps trying to reach Google's services; what it still tries the fence refuses (fence.ts).
const QUIET_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
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
  /** Browsers that run elsewhere, leased one to a task, in place of a Chromium of our own (browser-pool.ts). */
  pool?: BrowserLeases | null;
  /** BROWSER_FENCE_ADDRESS: where leased browsers on other machines reach the fence (`host:port`). */
  fenceAddress?: string | undefined;
  /** Where chats' sign-ins are kept; by default this process's memory. */
  signIns?: SignInKeeper;
}

export class BrowserHost {
  private launching: Promise<Browser> | null = null;
  /** A context opened for the next task, with the options it was opened with. */
  private spare: { options: BrowserComputerOptions; ready: Promise<BrowserComputer | null> } | null = null;
  private closing = false;
  private fence: Promise<Fence> | null = null;
  /** The fence where leased browsers on other machines reach it, once one was leased. */
  private outsideProxy: Promise<ContextProxy> | null = null;
  /** Launch directories being removed as their browsers go: `close` waits for them. */
  private readonly removals = new Set<Promise<void>>();
  /** Local and private origins the person allowed while the server runs, besides ALLOWED_ORIGINS. */
  private readonly permitted = new Set<string>();
  /** The cookies each chat's browser held when its last task ended. */
  private readonly signIns: SignInKeeper;
  private readonly gate: NetworkGate = {
    judge: (url) => judgeUrl(this.policy(), new URL(url)),
    permit: (origin) => void this.permitted.add(origin),
  };

  /**
   * A browser our fence does not cover (attached over CDP, the person's own Chrome) goes where they
   * may go; only EasyAgentCU's own server and the sites the domain lists close (BLOCKED_DOMAINS,
   * ALLOWED_DOMAINS) stay closed to the agent there, which the hands see through this gate.
   */
  readonly unfencedGate: NetworkGate = {
    judge: async (url) => {
      const verdict = await judgeUrl(this.policy(), new URL(url));
      return !verdict.allowed && (verdict.own || verdict.closedBy) ? verdict : { allowed: true };
    },
    permit: () => undefined,
  };

  constructor(private readonly options: BrowserHostOptions) {
    this.signIns = options.signIns ?? new SignIns();
  }

  /** Forgets the sign-ins kept for a chat (it was deleted). */
  forget(chat: string): void {
    this.signIns.forget(chat);
  }

  /**
   * A browser context for a task. One of a chat (`chat`: its session id, and how this task writes
   * its sign-ins) starts from the sign-ins the chat's last task ended with, and leaves its own for the next.
   */
  async open(options: BrowserComputerOptions, chat?: { id: string; write: SignInWrite }, signal?: AbortSignal): Promise<BrowserComputer> {
    const { pool } = this.options;
    const computer = pool ? await this.leased(pool, options, signal) : ((await this.takeSpare(options)) ?? (await this.openNew(options)));
    if (chat !== undefined) {
      await this.signIns.of(chat.id, chat.write).then((signIns) => computer.carry(signIns)).catch(async (error: unknown) => {
        await computer.close();
        throw error;
      });
    }
    // The next task's context opens while this one runs, so one sent as this one ends finds it
    // ready; but between its steps (its model thinking), not beside them: opening it slowed the
    // steps it ran beside by a third. A task whose steps follow at once opens it as it ends. A
    // leased browser has no spare: it would hold a browser no task uses.
    if (!pool) computer.whenIdle(() => this.prepareSpare(options));
    return computer;
  }

  /**
   * A new context in a leased browser, its connections through the fence as our own contexts' are.
   * The fence must be up: unlike our own Chromium, a browser elsewhere was not started with the
   * switch that closes every connection made outside it. Closing the context lets go of the browser
   * and gives it back; a browser that goes away while held is given back as down.
   */
  private async leased(pool: BrowserLeases, options: BrowserComputerOptions, signal?: AbortSignal): Promise<BrowserComputer> {
    this.fence ??= Fence.start(() => this.policy());
    const fence = await this.fence;
    const lease = await pool.lease(signal);
    const proxy = await this.proxyFor(fence, lease.url).catch(async (error: unknown) => {
      await lease.release();
      throw error;
    });
    let browser: Browser | undefined;
    try {
      browser = await connectOverCdp(lease.url, options.navigationTimeoutMs);
      const connected = browser;
      let lettingGo = false;
      connected.once("disconnected", () => void (lettingGo || lease.release(true)));
      // Another process leased it meanwhile (this one's claim expired unrenewed): the task lets go, failing as a browser gone.
      lease.onLost?.(() => void connected.close().catch(() => undefined));
      const computer = await BrowserComputer.create(connected, { ...options, gate: this.gate, proxy });
      return givingBack(computer, async () => {
        lettingGo = true;
        await connected.close().catch(() => undefined);
        await lease.release();
      });
    } catch (error) {
      await browser?.close().catch(() => undefined);
      await lease.release(true);
      if (browser && !browser.isConnected()) throw crashed(error);
      throw error;
    }
  }

  /** Where the browser at `cdpUrl` reaches the fence: on loopback when it runs on this machine, else at BROWSER_FENCE_ADDRESS. */
  private async proxyFor(fence: Fence, cdpUrl: string): Promise<ContextProxy> {
    if (onThisMachine(cdpUrl)) return fence.contextProxy;
    const address = this.options.fenceAddress;
    if (!address) {
      throw new AppError(
        "BROWSER_UNAVAILABLE",
        `The browser at ${redactUrl(cdpUrl)} runs on another machine, which cannot reach the network fence on this one's loopback: set BROWSER_FENCE_ADDRESS to an address of this server that the browser can reach (10.0.0.5:8899), where the fence then listens for it.`,
      );
    }
    this.outsideProxy ??= fence.openTo(address).catch((error: unknown) => {
      this.outsideProxy = null;
      throw new AppError("BROWSER_UNAVAILABLE", `The network fence could not listen at ${address} (BROWSER_FENCE_ADDRESS) for browsers on other machines: ${String(error)}`, { cause: error });
    });
    return this.outsideProxy;
  }

  private async openNew(options: BrowserComputerOptions): Promise<BrowserComputer> {
    const browser = await this.browser();
    try {
      return await this.create(browser, options);
    } catch (error) {
      if (!browser.isConnected()) throw crashed(error);
      throw error;
    }
  }

  /** A context whose pages go through the fence; one made without (the host closing) reaches nothing, as the browser's own connections. */
  private async create(browser: Browser, options: BrowserComputerOptions): Promise<BrowserComputer> {
    const fence = await this.fence?.catch(() => null);
    return BrowserComputer.create(browser, { ...options, gate: this.gate, ...(fence ? { proxy: fence.contextProxy } : {}) });
  }

  /** A new context whose page has drawn its first frame: a new page's first capture waits for it. */
  private async painted(browser: Browser, options: BrowserComputerOptions): Promise<BrowserComputer> {
    const computer = await this.create(browser, options);
    await computer.screenshot().catch(() => undefined);
    return computer;
  }

  /** The spare, when it was opened alike and its browser still runs; any other is closed, and none opened for it. */
  private async takeSpare(options: BrowserComputerOptions): Promise<BrowserComputer | null> {
    const spare = this.spare;
    this.spare = null;
    const late = new Promise<null>((resolve) => setTimeout(resolve, SPARE_WAIT_MS, null).unref());
    const computer = spare ? await Promise.race([spare.ready, late]) : null;
    if (spare && !computer) void spare.ready.then((ready) => ready?.close());
    if (computer && computer.usable && sameOptions(spare!.options, options)) return computer;
    await computer?.close();
    return null;
  }

  /** Opens the next task's context in the browser already running, unless there is one or the host closes. */
  private prepareSpare(options: BrowserComputerOptions): void {
    const launching = this.launching;
    if (this.spare || this.closing || !launching) return;
    const ready = launching.then((browser) => unlessDisconnected(browser, () => this.painted(browser, options))).catch(() => null);
    this.spare = { options, ready };
  }

  /**
   * Connects to a running browser's DevTools endpoint (`http://host:9222` or its `ws://` URL) and
   * drives the page with the given target id, or its first page.
   */
  async attach(cdpUrl: string, targetId: string | undefined, options: Pick<BrowserComputerOptions, "jpegQuality" | "navigationTimeoutMs" | "secrets">): Promise<BrowserComputer> {
    const browser = await connectOverCdp(cdpUrl, options.navigationTimeoutMs);
    try {
      const pages = browser.contexts().flatMap((context) => context.pages());
      const page = targetId ? await pageWithTarget(pages, targetId) : pages[0];
      if (!page) throw new AppError("INVALID_TARGET", `The browser at ${redactUrl(cdpUrl)} has no open page to drive.`);
      if (onThisMachine(cdpUrl)) return await BrowserComputer.attach(browser, page, { ...options, gate: this.unfencedGate });
      await giveBackDownloads(browser, true);
      return await BrowserComputer.attach(browser, page, { ...options, gate: this.unfencedGate, downloadsElsewhere: elsewhereReason(cdpUrl) });
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const spare = this.spare;
    this.spare = null;
    await (await spare?.ready)?.close();
    const launching = this.launching;
    this.launching = null;
    if (launching) await (await launching.catch(() => null))?.close().catch(() => undefined);
    await Promise.all(this.removals);
    const fence = this.fence;
    this.fence = null;
    this.outsideProxy = null;
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

/** A connection to the browser at a DevTools address; failing, why, without the address's secrets. */
async function connectOverCdp(cdpUrl: string, timeout: number): Promise<Browser> {
  try {
    return await chromium.connectOverCDP(cdpUrl, { timeout });
  } catch (error) {
    const why = String(error).split("\n")[0]!.replaceAll(cdpUrl, redactUrl(cdpUrl));
    throw new AppError("BROWSER_UNAVAILABLE", `Could not connect to the browser at ${redactUrl(cdpUrl)}: ${why}`, { cause: error });
  }
}

/** The computer, whose `close` then runs `after` (the lease given back). */
function givingBack(computer: BrowserComputer, after: () => Promise<void>): BrowserComputer {
  return new Proxy(computer, {
    get(target, key) {
      if (key === "close") return () => target.close().finally(after);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** What `open` opens, or null once the browser is gone: a context asked for as Chromium dies may never come. */
function unlessDisconnected(browser: Browser, open: () => Promise<BrowserComputer>): Promise<BrowserComputer | null> {
  if (!browser.isConnected()) return Promise.resolve(null);
  return new Promise((resolve) => {
    const gone = () => resolve(null);
    browser.once("disconnected", gone);
    const settle = (computer: BrowserComputer | null) => {
      browser.off("disconnected", gone);
      resolve(computer);
    };
    open().then(settle, () => settle(null));
  });
}

function sameOptions(a: BrowserComputerOptions, b: BrowserComputerOptions): boolean {
  return (
    a.width === b.width &&
    a.height === b.height &&
    a.deviceScaleFactor === b.deviceScaleFactor &&
    a.jpegQuality === b.jpegQuality &&
    a.navigationTimeoutMs === b.navigationTimeoutMs &&
    a.secrets === b.secrets &&
    a.som === b.som
  );
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
