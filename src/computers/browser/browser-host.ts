// Owns the one Chromium process that browser computers share. Each task gets its own isolated
// browser context from it; when Chromium dies the next `open` launches a new one.
import type { Browser } from "playwright-core";
import { chromium } from "playwright-core";
import { AppError } from "../../core/errors.ts";
import { BrowserComputer, crashed, type BrowserComputerOptions } from "./browser-computer.ts";
import { findChromium } from "./find-chromium.ts";

// Without these, Chromium keeps trying to reach Google's services, which closed networks refuse.
const QUIET_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu",
  "--disable-dev-shm-usage",
];

export interface BrowserHostOptions {
  chromePath?: string;
  headless: boolean;
}

export class BrowserHost {
  private launching: Promise<Browser> | null = null;

  constructor(private readonly options: BrowserHostOptions) {}

  async open(options: BrowserComputerOptions): Promise<BrowserComputer> {
    const browser = await this.browser();
    try {
      return await BrowserComputer.create(browser, options);
    } catch (error) {
      if (!browser.isConnected()) throw crashed(error);
      throw error;
    }
  }

  async close(): Promise<void> {
    const launching = this.launching;
    this.launching = null;
    if (launching) await (await launching.catch(() => null))?.close().catch(() => undefined);
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

  private async launch(): Promise<Browser> {
    const executablePath = findChromium(this.options.chromePath);
    try {
      return await chromium.launch({ executablePath, headless: this.options.headless, args: QUIET_ARGS });
    } catch (error) {
      throw new AppError("BROWSER_UNAVAILABLE", `Could not start Chromium at ${executablePath}: ${String(error)}`, {
        cause: error,
      });
    }
  }
}
