// A whole desktop as a computer (seeds 002 and 003): an X11 display driven through one X
// connection — XTest for the pointer and the keyboard, a selection it owns for pasted text,
// GetImage for the screen — so no action starts a process. Screen pixels are the input space;
// nothing here knows a page's structure, so every planner works on it through the screenshot
// alone, and Set-of-Mark's elements are found in the screen's pixels.
import { setTimeout as delay } from "node:timers/promises";
import type { Progress } from "../../core/progress.ts";
import type { Point, Size } from "../../perception/coordinates.ts";
import type { UiElement } from "../../perception/elements.ts";
import { PixelElements, type PixelSomOptions } from "../../perception/pixels/pixel-elements.ts";
import { captionOnScreen } from "../../perception/pixels/caption.ts";
import { rasterFromBgrx } from "../../perception/pixels/raster.ts";
import type { ActiveWindow, Computer, IncomingFile, LiveFrameListener, MouseButton, Screenshot, StructuralEffect, UploadFile } from "../computer.ts";
import { compareDesktop, desktopState } from "./desktop-effects.ts";
import { FolderDownloads } from "./folder-downloads.ts";
import { checkOnScreen, dragPath, InputGuard, refuseNavigate, wheelNotches } from "./desktop-input.ts";
import { bgrxToJpeg, DESKTOP_LATE_EFFECT_MS, DESKTOP_MIN_CHANGED_PIXELS, LiveFrames, settleScreen } from "./desktop-screen.ts";
import { Clipboard } from "./clipboard.ts";
import { Keyboard } from "./keyboard.ts";
import { typeText } from "./typing.ts";
import type { UploadFolder } from "./upload-folder.ts";
import { X11Session } from "./x11-session.ts";

export interface DesktopComputerOptions {
  /** The X display to drive (`:0`, or a virtual one's name). */
  display: string;
  jpegQuality: number;
  /** Live frames a second while someone watches. */
  liveFps: number;
  /** At least this long between two inputs (seed 003 §5-3); 0 for none. */
  minIntervalMs: number;
  /** Called on close: the virtual display the computer runs on, when it owns one. */
  onClose?: () => Promise<void>;
  /** Set-of-Mark from the screen's pixels (seed 002 §2.4); the configuration's defaults when absent. */
  som?: PixelSomOptions;
  /** Whether the display's programs run behind the desktop fence (desktop-fence.ts); not when absent. */
  fenced?: boolean;
  /** The folder the display's programs save downloads to: a new file there is an action's effect. */
  downloads?: string;
  /**
   * Where an uploaded file is put for the display's programs to read (a fenced desktop's cannot
   * read the data dir); absent where they run as the server's user, who reads the file where it is.
   */
  uploads?: UploadFolder;
  /**
   * Whether the downloads folder's new files are the task's, kept with it: a virtual desktop's own
   * folder is; the person's own Downloads folder holds their files, not the task's.
   */
  keepDownloads?: boolean;
}

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
/** X wheel buttons: up, down, left, right. */
const WHEEL = { up: 4, down: 5, left: 6, right: 7 } as const;

export class DesktopComputer implements Computer {
  readonly kind = "desktop" as const;
  readonly logicalSize: Size;
  readonly minChangedPixels = DESKTOP_MIN_CHANGED_PIXELS;
  readonly lateEffectMs = DESKTOP_LATE_EFFECT_MS;
  readonly fenced: boolean;
  private readonly live: LiveFrames;
  private readonly guard: InputGuard;
  private readonly pixels: PixelElements;
  private closed = false;
  private readonly received: FolderDownloads | null;

  private constructor(
    private readonly x: X11Session,
    private readonly keyboard: Keyboard,
    private readonly clipboard: Clipboard,
    private readonly options: DesktopComputerOptions,
  ) {
    this.logicalSize = x.size;
    this.fenced = options.fenced ?? false;
    this.live = new LiveFrames(options.liveFps, () => this.screenshot());
    this.guard = new InputGuard(options.minIntervalMs, () => x.pointer());
    this.pixels = new PixelElements(options.som);
    this.received = options.keepDownloads && options.downloads ? new FolderDownloads(options.downloads) : null;
  }

  static async open(options: DesktopComputerOptions): Promise<DesktopComputer> {
    const x = await X11Session.connect(options.display);
    return new DesktopComputer(x, await Keyboard.open(x), await Clipboard.open(x), options);
  }

  async screenshot(): Promise<Screenshot> {
    const { width, height } = this.logicalSize;
    return bgrxToJpeg({ data: await this.x.capture(), width, height, stride: width * 4 }, this.options.jpegQuality);
  }

  /** The screen's controls and text, numbered for Set-of-Mark, found in a fresh capture's pixels. */
  async elements(): Promise<UiElement[]> {
    const { width, height } = this.logicalSize;
    return this.pixels.find(rasterFromBgrx(await this.x.capture(), width, height));
  }

  async labelAt(x: number, y: number): Promise<string | null> {
    return captionOnScreen(await this.x.capture(), this.logicalSize, this.logicalSize.width * 4, { x, y });
  }

  async move(x: number, y: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    this.pointTo(x, y);
    await this.x.sync();
  }

  async click(x: number, y: number, button: MouseButton = "left", count = 1, progress?: Progress): Promise<void> {
    await this.before(progress);
    this.pointTo(x, y);
    for (let n = 0; n < count; n++) this.button(BUTTONS[button]);
    await this.x.sync();
  }

  async doubleClick(x: number, y: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    this.pointTo(x, y);
    this.button(BUTTONS.left);
    this.button(BUTTONS.left);
    await this.x.sync();
  }

  /** A drag cancelled midway lets go of the button where the pointer is. */
  async drag(from: Point, to: Point, progress?: Progress): Promise<void> {
    await this.before(progress);
    // Both ends checked before the button goes down: a refused end must not leave it held.
    checkOnScreen(to.x, to.y, this.logicalSize);
    const { xtest, root } = this.x;
    this.pointTo(from.x, from.y);
    xtest.FakeInput(xtest.ButtonPress, BUTTONS.left, 0, root, 0, 0);
    try {
      await this.x.sync();
      for (const point of dragPath(from, to)) {
        progress?.check();
        this.pointTo(point.x, point.y);
        await this.x.sync();
      }
    } finally {
      xtest.FakeInput(xtest.ButtonRelease, BUTTONS.left, 0, root, 0, 0);
      await this.x.sync();
    }
  }

  async type(text: string, progress?: Progress): Promise<void> {
    await this.before(progress);
    await typeText(text, this.keyboard, this.clipboard, async () => (await this.activeWindow())?.app ?? null, progress);
  }

  async keypress(keys: string[], progress?: Progress): Promise<void> {
    await this.before(progress);
    await this.keyboard.press(keys);
  }

  async holdKeys(keys: string[], ms: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    await this.keyboard.press(keys, () => (progress ? progress.sleep(ms) : delay(ms)));
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    this.pointTo(x, y);
    for (let n = 0; n < wheelNotches(scrollY); n++) this.button(scrollY > 0 ? WHEEL.down : WHEEL.up);
    for (let n = 0; n < wheelNotches(scrollX); n++) this.button(scrollX > 0 ? WHEEL.right : WHEEL.left);
    await this.x.sync();
  }

  /**
   * Types the file's path, placed where the desktop's programs can read it, into the file dialog
   * that is open — into its name field at `at`, clicked first — and presses Enter to open it.
   */
  async upload(file: UploadFile, at: Point | null, progress?: Progress): Promise<void> {
    const placed = this.options.uploads ? await this.options.uploads.place(file) : file.path;
    if (at) await this.click(at.x, at.y, "left", 1, progress);
    await this.type(placed, progress);
    await this.keypress(["Enter"], progress);
  }

  /** The fail-safe and the interval between inputs, then whether the action is still wanted: a cancelled one is not started. */
  private async before(progress: Progress | undefined): Promise<void> {
    await this.guard.before();
    progress?.check();
  }

  /** From the window manager's _NET_ACTIVE_WINDOW, the window's _NET_WM_NAME (else WM_NAME) and WM_CLASS. */
  async activeWindow(): Promise<ActiveWindow | null> {
    const active = await this.x.property(this.x.root, "_NET_ACTIVE_WINDOW");
    const window = active && active.length >= 4 ? active.readUInt32LE(0) : 0;
    if (window === 0) return null;
    try {
      const title = (await this.x.property(window, "_NET_WM_NAME")) ?? (await this.x.property(window, "WM_NAME"));
      const wmClass = (await this.x.property(window, "WM_CLASS"))?.toString("utf8").split("\0") ?? [];
      return { title: title?.toString("utf8") ?? "", app: wmClass[1] || wmClass[0] || "" };
    } catch {
      // The window closed between the two questions.
      return null;
    }
  }

  cursorPosition(): Promise<Point> {
    return this.x.pointer();
  }

  async currentUrl(): Promise<string | null> {
    return null;
  }

  async navigate(): Promise<void> {
    refuseNavigate();
  }

  settle(): Promise<void> {
    return settleScreen(() => this.x.capture());
  }

  async watchStructure(): Promise<() => Promise<StructuralEffect>> {
    const downloads = this.options.downloads ?? null;
    const before = await desktopState(this.x, downloads);
    return async () => compareDesktop(before, await desktopState(this.x, downloads));
  }

  receiveFiles(listener: (file: IncomingFile) => void): () => void {
    return this.received?.receive(listener) ?? (() => undefined);
  }

  onLiveFrame(listener: LiveFrameListener): () => void {
    return this.live.add(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.live.stop();
    this.received?.close();
    await this.keyboard.restore().catch(() => undefined);
    this.clipboard.close();
    this.x.close();
    await this.options.onClose?.();
  }

  private pointTo(x: number, y: number): void {
    checkOnScreen(x, y, this.logicalSize);
    const placed = { x: Math.round(x), y: Math.round(y) };
    this.guard.placedAt(placed);
    this.x.xtest.FakeInput(this.x.xtest.MotionNotify, 0, 0, this.x.root, placed.x, placed.y);
  }

  private button(button: number): void {
    const { xtest, root } = this.x;
    xtest.FakeInput(xtest.ButtonPress, button, 0, root, 0, 0);
    xtest.FakeInput(xtest.ButtonRelease, button, 0, root, 0, 0);
  }
}
