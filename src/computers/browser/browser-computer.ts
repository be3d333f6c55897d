// A Computer backed by one Chromium browser context: input through Playwright's mouse and keyboard
// (page-input.ts), settling (page-settle.ts), step screenshots through CDP `Page.captureScreenshot`,
// the live view through `Page.startScreencast`. Which page is the screen — popups followed, a closed
// screen's opener or previous tab taking over, a crashed renderer — is page-life.ts's; the agent's
// own tab switches are tabs.ts's. Either an isolated context of our own Chromium, closed with the
// task, or a page of a browser it attached to over CDP (a person's Chrome, an Electron view), which
// it leaves open.
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { AppError, firstLine, StopRequested } from "../../core/errors.ts";
import type { Progress } from "../../core/progress.ts";
import { Secrets } from "../../core/secrets.ts";
import { convert, spacesFor, type Point, type Size } from "../../perception/coordinates.ts";
import { imageSize } from "../../perception/image-size.ts";
import type { Computer, ElementTarget, HitTest, IncomingFile, LiveFrameListener, MouseButton, NetworkGate, ScreenHolder, Screenshot, StructuralEffect, UploadFile } from "../computer.ts";
import type { UiElement } from "../../perception/elements.ts";
import { PixelElements } from "../../perception/pixels/pixel-elements.ts";
import { rasterFromImage, type Raster } from "../../perception/pixels/raster.ts";
import { compare, holdElementAt, PageActivity } from "./page-activity.ts";
import { giveBackDownloads } from "./attached-downloads.ts";
import { PageDownloads } from "./page-downloads.ts";
import { PageEffects } from "./page-effects.ts";
import { uploadFile } from "./file-upload.ts";
import { Screencast } from "./screencast.ts";
import { PageLife } from "./page-life.ts";
import { captureViewport, LOSSLESS_CAPTURE, STEP_CAPTURE, type CaptureFormat, type CaptureLimits } from "./page-capture.ts";
import { unlessUnresponsive } from "./page-watchdog.ts";
import { SecretCover } from "./secret-cover.ts";
import { pageShows } from "./page-shows.ts";
import { hearPageTools } from "./page-tools.ts";
import { addCookies, readCookies, type CarriedSignIns } from "./sign-ins.ts";
import { steadyCaret } from "./steady-caret.ts";
import { ContextTabs } from "./tabs.ts";
import { everyCallThrough, WebPage } from "./web-page.ts";
import { IdleWork } from "./idle-work.ts";
import { PageInput } from "./page-input.ts";
import { settlePage } from "./page-settle.ts";
import { pageElements } from "./page-elements.ts";
import type { AttachOptions, BrowserComputerOptions } from "./browser-options.ts";

/** Playwright's word for a navigation that became a download. */
const DOWNLOAD_STARTED = /Download is starting/;
const LATE_EFFECT_MS = 1_000;

export class BrowserComputer implements Computer {
  readonly kind: "browser" | "extension";
  readonly handOver?: (to: ScreenHolder) => Promise<void>;
  /** Work for when the browser is idle (`whenIdle`). */
  private readonly idle = new IdleWork(() => this.closed);
  private closed = false;
  private lastInputAt = 0;
  /** The chat's sign-ins this context started from, and where it gives back its own as it closes. */
  private signIns: CarriedSignIns | null = null;

  readonly web: WebPage;
  readonly gate: NetworkGate | undefined;
  /** Only in a context of our own: in a browser attached to, the other tabs are the person's. */
  readonly tabs: ContextTabs | undefined;
  /**
   * A page may answer a click a moment after it settled (a script that checks a form before it
   * posts, a download that starts once its server answers): what it set off until then counts.
   */
  readonly lateEffectMs = LATE_EFFECT_MS;
  private readonly secrets: Secrets;
  private readonly pixels: PixelElements;
  private readonly live = new Screencast(() => this.screen);
  private readonly cover: SecretCover;
  /** What actions set off that the screen need not show (a download, a tab, a dialog, a request). */
  private readonly effects: PageEffects;
  /**
   * Downloads: of a context of our own, or of a browser attached to over CDP, which Playwright has
   * save them on this machine while the task drives it (attached-downloads.ts). Null in the
   * extension's tab, whose downloads the extension sends.
   */
  private readonly downloads: PageDownloads | null;

  /** Which page is the screen, its CDP session, the pages that open, a crashed renderer (page-life.ts). */
  private readonly life: PageLife;
  /** The screen page's mouse and keyboard. */
  private readonly inputs: PageInput;

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    page: Page,
    private readonly options: BrowserComputerOptions,
    private readonly activity: PageActivity,
    /** Attached to someone else's browser: closing only lets go of it. */
    private readonly attached: AttachOptions | null = null,
  ) {
    this.kind = attached?.kind ?? "browser";
    this.effects = new PageEffects(context, attached === null || attached.kind === "extension");
    this.life = new PageLife(page, { browser, context, attached, kind: this.kind, effects: this.effects, live: this.live, tabs: () => this.tabs, closed: () => this.closed });
    const handOver = attached?.handOver;
    if (handOver) {
      // The task's tab in the person's Chrome holds its file choosers only while the agent has it:
      // the person who takes over chooses their files in Chrome's own dialog.
      this.handOver = async (to) => {
        if (this.kind === "extension") this.effects.holdChoosers(to === "agent");
        await handOver(to);
      };
    }
    this.secrets = (options.secrets ?? new Secrets({})).fresh();
    this.gate = options.gate;
    this.pixels = new PixelElements(options.som);
    this.inputs = new PageInput({ page: () => this.page, toCss: (x, y) => this.toCss(x, y), deviceScaleFactor: options.deviceScaleFactor ?? 1, navigationTimeoutMs: options.navigationTimeoutMs });
    this.cover = new SecretCover(context);
    this.downloads = attached?.kind === "extension" ? null : new PageDownloads(context, attached?.downloadsElsewhere ?? null);
    this.tabs = attached
      ? undefined
      : new ContextTabs(context, {
          current: () => this.page,
          // Through the guard, which first lets a switch under way (the new tab followed as it opened) end.
          show: (shown) => this.guard(async () => (this.page === shown ? undefined : this.life.attach(shown))),
          navigate: (url) => this.navigate(url),
          guard: (operation) => this.guard(operation),
        });
    // Every operation on the page's elements runs guarded, as the computer's own do: a page stuck in
    // a loop would otherwise hold a tool's look or click until the task's time limit.
    this.web = everyCallThrough(new WebPage(() => this.page, options.deviceScaleFactor ?? 1, options.navigationTimeoutMs, this.secrets), (operation) => this.guard(operation));
  }

  static async create(browser: Browser, options: BrowserComputerOptions): Promise<BrowserComputer> {
    const context = await browser.newContext({
      viewport: { width: options.width, height: options.height },
      deviceScaleFactor: options.deviceScaleFactor ?? 1,
      ...(options.proxy ? { proxy: options.proxy } : {}),
    });
    try {
      // Only in our own contexts: a browser attached to is left as it was.
      const [activity] = await Promise.all([PageActivity.install(context), steadyCaret(context), hearPageTools(context)]);
      const computer = new BrowserComputer(browser, context, await context.newPage(), options, activity);
      await computer.life.attach(computer.page);
      context.on("page", (page) => void computer.life.follow(page));
      return computer;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Drives a page of a browser connected over CDP: its size and pixel ratio are the page's own;
   * `close` disconnects and leaves the browser and its pages as they were.
   */
  static async attach(browser: Browser, page: Page, options: AttachOptions): Promise<BrowserComputer> {
    const context = page.context();
    const size = await page.evaluate(() => ({ width: innerWidth, height: innerHeight, deviceScaleFactor: devicePixelRatio }));
    // Pages of the person's own browser declare tools to their agent as well.
    const [activity] = await Promise.all([PageActivity.install(context), hearPageTools(context)]);
    const computer = new BrowserComputer(browser, context, page, { ...options, ...size }, activity, options);
    await computer.life.attach(page);
    context.on("page", (opened) => void computer.life.follow(opened));
    return computer;
  }

  /**
   * Connects to a DevTools endpoint that shows one page (the extension's relay of a tab) and
   * drives it as {@link attach} does.
   */
  static async connect(endpoint: string, options: AttachOptions): Promise<BrowserComputer> {
    const browser = await chromium.connectOverCDP(endpoint, { timeout: options.navigationTimeoutMs });
    try {
      const page = browser.contexts()[0]?.pages()[0];
      if (!page) throw new AppError("INVALID_TARGET", "The endpoint shows no page to drive.");
      return await BrowserComputer.attach(browser, page, options);
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  /** The screen's page and its CDP session (page-life.ts). */
  private get page(): Page {
    return this.life.page;
  }

  private get cdp(): CDPSession {
    return this.life.cdp;
  }

  /** Not closed, and its browser and page still there, the page's renderer alive. */
  get usable(): boolean {
    return !this.closed && this.browser.isConnected() && !this.page.isClosed() && !this.life.crashed();
  }

  get logicalSize(): Size {
    return { width: this.options.width, height: this.options.height };
  }

  /** The screenshot's size in device pixels. */
  private get screen(): Size {
    return spacesFor(this.logicalSize, this.options.deviceScaleFactor ?? 1, this.logicalSize).screenshot;
  }

  private toCss(x: number, y: number): Point {
    const screenshot = this.screen;
    return convert({ x, y }, { screenshot, logical: this.logicalSize, model: screenshot }, "screenshot", "logical");
  }

  async screenshot(): Promise<Screenshot> {
    const format = { format: "jpeg", quality: this.options.jpegQuality, optimizeForSpeed: true } as const;
    const data = await this.guard(() => this.live.pausedFor(() => this.capture(format, STEP_CAPTURE)));
    const shot: Screenshot = { data, mimeType: "image/jpeg", ...imageSize(data) };
    // The newest screen, fresher than the stream's last frame: a viewer sees it at once.
    this.live.show(shot);
    return shot;
  }

  /** The viewport in device pixels (page-capture.ts), once what shows a typed secret is blurred. */
  private async capture(format: CaptureFormat, limits: CaptureLimits): Promise<Buffer> {
    // Once a secret was typed, the page may show its value anywhere: what shows it is blurred first.
    await this.cover.cover(this.page, this.cdp, this.secrets.revealed);
    return captureViewport(this.page, this.cdp, format, limits, { deviceScaleFactor: this.options.deviceScaleFactor ?? 1, crashed: () => this.life.crashed() });
  }

  /**
   * Runs `then` once the browser is idle (idle-work.ts: most often, its task waits for the model),
   * or when it closes: work that would slow the task's steps, done between them.
   */
  whenIdle(then: () => void): void {
    this.idle.add(then);
  }

  async move(x: number, y: number, progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.move(x, y));
  }

  async click(x: number, y: number, button: MouseButton = "left", count = 1, progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.click(x, y, button, count));
  }

  async doubleClick(x: number, y: number, progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.doubleClick(x, y));
  }

  async drag(from: Point, to: Point, progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.drag(from, to, progress));
  }

  async upload(file: UploadFile, at: Point | null, progress?: Progress): Promise<void> {
    // A browser connected over CDP may run on another machine: Playwright then reads the file here
    // and sets its bytes on the input through the page (a DataTransfer's File, `input` and `change`).
    await this.input(progress, () => uploadFile(this.page, file, at && this.toCss(at.x, at.y), () => this.effects.takeChooser(this.page)));
  }

  /** A typed secret's value is masked in its field once typed, even when typing was cancelled midway. */
  async type(text: string, progress?: Progress): Promise<void> {
    const typed = this.secrets.reveal(text);
    try {
      await this.input(progress, () => this.inputs.type(typed, progress));
    } finally {
      if (typed !== text) await this.web.maskFocused();
    }
  }

  async keypress(keys: string[], progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.keypress(keys));
  }

  async holdKeys(keys: string[], ms: number, progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.holdKeys(keys, ms, progress));
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number, progress?: Progress): Promise<void> {
    await this.input(progress, () => this.inputs.scroll(x, y, scrollX, scrollY));
  }

  async cursorPosition(): Promise<Point> {
    return this.inputs.cursor;
  }

  async currentUrl(): Promise<string | null> {
    return this.closed ? null : this.page.url();
  }

  /** A navigation cancelled midway is stopped in the browser (`Page.stopLoading`), not left to load. */
  async navigate(url: string, progress?: Progress): Promise<void> {
    await this.input(progress, async () => {
      const page = this.page;
      const stop = () => void this.cdp.send("Page.stopLoading").catch(() => undefined);
      progress?.signal.addEventListener("abort", stop, { once: true });
      try {
        await page.goto(url, { waitUntil: "load", timeout: this.options.navigationTimeoutMs });
      } catch (error) {
        progress?.check();
        if (!this.browser.isConnected() || this.life.crashed(page)) throw error;
        // An address that serves a file starts a download instead of a page: opened as asked, the file is received.
        if (DOWNLOAD_STARTED.test(firstLine(error))) return;
        throw new AppError("ACTION_FAILED", `Could not open ${url}: ${firstLine(error)}`, { cause: error });
      } finally {
        progress?.signal.removeEventListener("abort", stop);
      }
    });
  }

  /** Waits on what the last action set off (page-settle.ts). */
  async settle(): Promise<void> {
    const navigated = (since: number, capMs: number) => this.life.navigations.ended(since, capMs);
    await this.guard(() => settlePage(this.page, this.activity, this.lastInputAt, navigated, () => this.life.arrived()));
  }

  receiveFiles(listener: (file: IncomingFile) => void): () => void {
    return this.downloads?.receive(listener) ?? this.attached?.receiveFiles?.(listener) ?? (() => undefined);
  }

  async watchStructure(): Promise<() => Promise<StructuralEffect>> {
    const mark = this.effects.mark();
    const before = await this.guard(() => this.activity.snapshot(this.page));
    return async () => compare(before, await this.guard(() => this.activity.snapshot(this.page)), this.effects.since(mark));
  }

  async holdTarget(x: number, y: number, element?: ElementTarget): Promise<() => Promise<HitTest>> {
    const at = this.toCss(x, y);
    const held = await this.guard(() => holdElementAt(this.page, at, element?.xpath ?? undefined));
    const scale = this.options.deviceScaleFactor ?? 1;
    return async () => {
      const hit = await this.guard(() => held()).catch((): HitTest => ({ onTarget: false, now: null }));
      return { onTarget: hit.onTarget, now: hit.now ? { x: Math.round(hit.now.x * scale), y: Math.round(hit.now.y * scale) } : null };
    };
  }

  /** The page's Set-of-Mark (page-elements.ts). */
  async elements(): Promise<UiElement[]> {
    const losslessCapture = () => this.losslessCapture();
    return pageElements({ page: () => this.page, deviceScaleFactor: this.options.deviceScaleFactor ?? 1, pixels: this.pixels, losslessCapture, toCss: (x, y) => this.toCss(x, y), guard: (operation) => this.guard(operation) });
  }

  /** The viewport in device pixels as a PNG, decoded: a JPEG's ringing around text would read as edges. */
  private async losslessCapture(): Promise<Raster> {
    return rasterFromImage(await this.live.pausedFor(() => this.capture({ format: "png" }, LOSSLESS_CAPTURE)));
  }

  pageShows(texts: readonly string[]): Promise<boolean[]> {
    return this.guard(() => pageShows(this.cdp, texts));
  }

  evaluate(expression: string): Promise<unknown> {
    return this.guard(() => this.page.evaluate(expression));
  }

  onLiveFrame(listener: LiveFrameListener): () => void {
    return this.live.listen(listener);
  }

  /**
   * Starts with a chat's sign-ins, before its task's first page loads, and gives back the ones it
   * holds when it closes (sign-ins.ts). Only for a context of our own: an attached browser keeps its own.
   */
  async carry(signIns: CarriedSignIns): Promise<void> {
    await addCookies(this.context, signIns.cookies);
    this.signIns = signIns;
    if (signIns.eachStep) this.keepSignInsWhenIdle(signIns);
  }

  /** Between steps, while the task waits for its model: reading the cookies then slows no step. */
  private keepSignInsWhenIdle(signIns: CarriedSignIns): void {
    this.whenIdle(() => {
      if (this.closed) return;
      void readCookies(this.context).then((cookies) => cookies && !this.closed && signIns.keep(cookies));
      this.keepSignInsWhenIdle(signIns);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.live.close(this.attached !== null);
      if (this.attached) {
        await this.cdp.detach().catch(() => undefined);
        if (this.kind === "browser") await giveBackDownloads(this.browser, false).catch(() => undefined);
        await this.browser.close().catch(() => undefined);
        await this.attached.onClose?.();
      } else {
        const { signIns } = this;
        const cookies = signIns && (await readCookies(this.context));
        if (cookies) await signIns.keep(cookies);
        await this.context.close().catch(() => undefined);
      }
    } finally {
      // Closed before it was ever idle (a task whose steps followed each other at once): its work is due now.
      this.idle.runNow();
    }
  }

  /** An operation that acts on the page, not started once its progress is cancelled: settling waits for what it started. */
  private input<T>(progress: Progress | undefined, operation: () => Promise<T>): Promise<T> {
    return this.guard(() => {
      progress?.check();
      this.lastInputAt = Date.now();
      return operation();
    });
  }

  /**
   * Runs a browser operation, turning a dead browser — or a dead renderer of the screen's page,
   * whose failures would otherwise read as a vague "Internal error" — into BROWSER_CRASHED. The
   * browser is not idle while one runs.
   */
  private guard<T>(operation: () => Promise<T>): Promise<T> {
    return this.idle.during(() => this.guarded(operation));
  }

  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    if (this.attached?.ready) await this.attached.ready();
    await this.life.ready();
    this.life.assertAlive(null);
    try {
      return await unlessUnresponsive(operation(), () => this.cdp);
    } catch (error) {
      this.life.assertAlive(error);
      if (error instanceof AppError || error instanceof StopRequested) throw error;
      throw new AppError("ACTION_FAILED", firstLine(error), { cause: error });
    }
  }
}
