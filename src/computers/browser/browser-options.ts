// What a BrowserComputer is made with: the size and quality of its screen and captures, its
// navigation timeout, the secrets it types, its fence — and, for a browser attached to rather than
// launched (the person's Chrome over CDP, or through the extension), how it lets go and reports.
import type { AppError } from "../../core/errors.ts";
import type { Secrets } from "../../core/secrets.ts";
import type { PixelSomOptions } from "../../perception/pixels/pixel-elements.ts";
import type { IncomingFile, NetworkGate, ScreenHolder } from "../computer.ts";

export interface BrowserComputerOptions {
  width: number;
  height: number;
  deviceScaleFactor?: number;
  jpegQuality: number;
  navigationTimeoutMs: number;
  /** `%name%` placeholders typed as their values (core/secrets.ts). */
  secrets?: Secrets;
  /** The fence of the browser it runs in; BrowserHost gives it. */
  gate?: NetworkGate;
  /** Set-of-Mark from the page's pixels, beside its DOM's elements; the configuration's defaults when absent. */
  som?: PixelSomOptions;
  /** The proxy its context's connections go through: the fence, which BrowserHost gives. */
  proxy?: { server: string; username?: string; password?: string };
}

/** A browser attached to rather than launched: the person's Chrome over CDP, or through the extension. */
export interface AttachOptions extends Pick<BrowserComputerOptions, "jpegQuality" | "navigationTimeoutMs" | "secrets" | "gate"> {
  /** `extension`: the tab is driven through the EasyAgentCU extension (computers/extension). */
  kind?: "browser" | "extension";
  /** Runs after it has let go of the browser. */
  onClose?: () => Promise<void>;
  /** Shows the person who has the screen (computer.ts `handOver`). */
  handOver?: (to: ScreenHolder) => Promise<void>;
  /** Why the connection to the browser was cut on purpose (the extension left), to report instead of a crash. */
  lost?: () => AppError | null;
  /** Resolves once the browser can be driven: operations wait while the extension reconnects. */
  ready?: () => Promise<void>;
  /** How many times the extension showed its tab as a new page in place of the old one: the newest is driven. */
  replacements?: () => number;
  /** The downloads of the attached browser, where something other than this computer can keep them (the extension's `chrome.downloads`). */
  receiveFiles?: (listener: (file: IncomingFile) => void) => () => void;
  /** A browser attached to over CDP that runs on another machine: why its downloads are not kept (attached-downloads.ts). */
  downloadsElsewhere?: string;
}
