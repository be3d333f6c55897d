// The browsers tasks lease instead of a Chromium of our own: BROWSER_CDP_URLS, each held by one
// task at a time and checked before it is leased, or BROWSER_CDP_COMMAND, a session of its own for
// each task. Processes that share one store (a `serve` and its workers on Postgres) share the list:
// a browser is claimed in the store as it is leased (store/browser-claims.ts), so no two of them
// lease it at once.
import { redactUrl } from "../../core/cdp-endpoints.ts";
import type { Config } from "../../core/config.ts";
import { AppError } from "../../core/errors.ts";
import { commandLease } from "./cdp-command.ts";

/** A browser held by one task. */
export interface Lease {
  /** Its DevTools address, secrets and all: never recorded or shown as it is (redactUrl). */
  readonly url: string;
  /** Gives it back; `down`: it failed while held, so it is not leased again for a while. Once is enough; later calls do nothing. */
  release(down?: boolean): Promise<void>;
  /** Calls `listener` if the lease is lost while held (another process took the browser over): its task must let go. */
  onLost?(listener: () => void): void;
}

export interface BrowserLeases {
  /** A browser for one task, once one is free; `signal` ends the wait (the task was stopped). */
  lease(signal?: AbortSignal): Promise<Lease>;
}

/** How long /json/version may take to answer before the browser is taken for down. */
const CHECK_TIMEOUT_MS = 2_000;
/** How long a browser found down is passed over before it is checked again. */
export const DOWN_MS = 30_000;
/** How often a task waiting for a browser another process holds looks again: that one's release is not heard here. */
const ELSEWHERE_POLL_MS = 1_000;

/** A browser claimed in the store for one task. */
interface Claimed {
  release(): Promise<void>;
}

/** Claims a browser for a task across the processes that share the store; null while one of them holds it. */
export type ClaimBrowser = (url: string, lost: () => void) => Promise<Claimed | null>;

export interface PoolPorts {
  /** A browser was found down, or went away while held: told with its address made safe to show. */
  onDown: (endpoint: string, why: string) => void;
  claim: ClaimBrowser;
}

/** The leases the configuration gives, or null when tasks launch a Chromium of our own. */
export function browserLeases(browser: Config["browser"], ports: PoolPorts): BrowserLeases | null {
  if (browser.cdpUrls.length > 0) return new EndpointLeases(browser.cdpUrls, browser.leaseWaitMs, ports);
  const { cdpCommand, cdpCommandTimeoutMs } = browser;
  if (cdpCommand) return { lease: (signal) => commandLease(cdpCommand, cdpCommandTimeoutMs, signal) };
  return null;
}

interface Endpoint {
  readonly url: string;
  held: boolean;
  /** Whether another process held it when it was last tried. */
  elsewhere: boolean;
  /** Until when it is passed over (epoch ms). */
  downUntil: number;
}

/** BROWSER_CDP_URLS: each browser held by one task at a time, the first free one that answers leased. */
export class EndpointLeases implements BrowserLeases {
  private readonly endpoints: Endpoint[];
  /** Tasks waiting for a browser, woken when one is given back. */
  private readonly waiting = new Set<() => void>();

  constructor(
    urls: readonly string[],
    private readonly waitMs: number,
    private readonly ports: PoolPorts,
  ) {
    this.endpoints = urls.map((url) => ({ url, held: false, elsewhere: false, downUntil: 0 }));
  }

  async lease(signal?: AbortSignal): Promise<Lease> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      signal?.throwIfAborted();
      const leased = await this.firstFree();
      if (leased) return leased;
      const left = deadline - Date.now();
      if (left <= 0) throw this.noneFree();
      const elsewhere = this.endpoints.some((e) => e.elsewhere);
      await this.change(Math.min(left, this.nextUp(), elsewhere ? ELSEWHERE_POLL_MS : Number.POSITIVE_INFINITY), signal);
    }
  }

  /**
   * The first browser neither held nor down that no other process holds and that answers its
   * check: held here at once, so that no other task of this process takes it meanwhile.
   */
  private async firstFree(): Promise<Lease | null> {
    for (const endpoint of this.endpoints) {
      if (endpoint.held || endpoint.downUntil > Date.now()) continue;
      endpoint.held = true;
      const leased = await this.tryOne(endpoint).catch((error: unknown) => {
        endpoint.held = false;
        this.wakeAll();
        throw error;
      });
      if (leased) return leased;
      endpoint.held = false;
      // A task that found nothing free while this one was being tried sleeps on what it saw then: it looks again.
      this.wakeAll();
    }
    return null;
  }

  /** The lease of a browser held here meanwhile: claimed in the store, then checked. */
  private async tryOne(endpoint: Endpoint): Promise<Lease | null> {
    const lost = new Set<() => void>();
    const claim = await this.ports.claim(endpoint.url, () => {
      this.ports.onDown(redactUrl(endpoint.url), "another process took it over: this one could not renew its claim in time, so its task lets go of it");
      for (const listener of lost) listener();
    });
    endpoint.elsewhere = claim === null;
    if (!claim) return null;
    const why = await check(endpoint.url);
    if (why === null) return this.held(endpoint, claim, lost);
    await claim.release().catch(() => undefined);
    this.markDown(endpoint, why);
    return null;
  }

  private held(endpoint: Endpoint, claim: Claimed, lost: Set<() => void>): Lease {
    let released = false;
    return {
      url: endpoint.url,
      onLost: (listener) => void lost.add(listener),
      release: async (down = false) => {
        if (released) return;
        released = true;
        endpoint.held = false;
        if (down) this.markDown(endpoint, "it closed or could not be driven while a task held it");
        await claim.release().catch(() => undefined);
        this.wakeAll();
      },
    };
  }

  private wakeAll(): void {
    for (const wake of this.waiting) wake();
  }

  private markDown(endpoint: Endpoint, why: string): void {
    endpoint.downUntil = Date.now() + DOWN_MS;
    this.ports.onDown(redactUrl(endpoint.url), why);
  }

  /** How long until a browser now down is checked again. */
  private nextUp(): number {
    const now = Date.now();
    const ups = this.endpoints.filter((e) => !e.held && e.downUntil > now).map((e) => e.downUntil - now);
    return ups.length > 0 ? Math.min(...ups) : Number.POSITIVE_INFINITY;
  }

  /** Resolves when a browser is given back, after `ms`, or once `signal` is aborted. */
  private change(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        signal?.removeEventListener("abort", wake);
        resolve();
      };
      const timer = setTimeout(wake, signal?.aborted ? 0 : ms);
      this.waiting.add(wake);
      signal?.addEventListener("abort", wake, { once: true });
    });
  }

  private noneFree(): AppError {
    const now = Date.now();
    const busy = this.endpoints.filter((e) => e.held || e.elsewhere).length;
    const down = this.endpoints.filter((e) => !e.held && !e.elsewhere && e.downUntil > now);
    const downList = down.length > 0 ? ` (${down.map((e) => redactUrl(e.url)).join(", ")})` : "";
    return new AppError(
      "NO_BROWSER_FREE",
      `No browser was free within ${Math.round(this.waitMs / 1000)} s: of the ${this.endpoints.length} in BROWSER_CDP_URLS, ${count(busy)} busy with other tasks and ${count(down.length)} down${downList}. Send the task again once a task ends, start the browsers that are down, or add browsers to BROWSER_CDP_URLS.`,
      { retryable: true },
    );
  }
}

function count(n: number): string {
  return `${n} ${n === 1 ? "is" : "are"}`;
}

/** Why the browser at `url` is taken for down, or null when its DevTools answer. */
async function check(url: string): Promise<string | null> {
  try {
    const { href, authorization } = versionUrl(url);
    const reply = await fetch(href, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), ...(authorization ? { headers: { authorization } } : {}) });
    await reply.body?.cancel();
    // A service reached by its WebSocket address alone may serve nothing else: that it answers is enough.
    if (!reply.ok && /^https?:/.test(url)) return `its /json/version answered HTTP ${reply.status}`;
    return null;
  } catch (error) {
    const cause = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${CHECK_TIMEOUT_MS / 1000} s` : "nothing answers there";
    return `its /json/version could not be read: ${cause}`;
  }
}

/**
 * Where a DevTools endpoint tells its version: beside an http(s) address's path, at the root of a
 * ws(s) one's host. The address's user and password (a service's) go as Basic authorization: fetch
 * refuses an address that holds them.
 */
export function versionUrl(url: string): { href: string; authorization: string | null } {
  const u = new URL(url);
  const authorization = u.username || u.password ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}` : null;
  u.username = "";
  u.password = "";
  if (u.protocol === "ws:" || u.protocol === "wss:") return { href: `${u.protocol === "wss:" ? "https" : "http"}://${u.host}/json/version`, authorization };
  u.pathname = `${u.pathname.replace(/\/$/, "")}/json/version`;
  return { href: u.href, authorization };
}
