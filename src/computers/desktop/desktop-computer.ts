// A whole desktop as a computer (seeds 002 and 003): an X11 display driven through one X
// connection — XTest for the pointer and the keyboard, GetImage for the screen — so no action
// starts a process. Screen pixels are the input space; nothing here knows a page's structure,
// so every planner works on it through the screenshot alone.
import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import sharp from "sharp";
import { AppError, StopRequested } from "../../core/errors.ts";
import type { Point, Size } from "../../perception/coordinates.ts";
import type { ActiveWindow, Computer, LiveFrameListener, MouseButton, Screenshot } from "../computer.ts";
import { Keyboard } from "./keyboard.ts";
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
}

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
/** X wheel buttons: up, down, left, right. One notch scrolls about this many pixels. */
const WHEEL = { up: 4, down: 5, left: 6, right: 7 } as const;
const PIXELS_PER_NOTCH = 40;
const SETTLE_CAP_MS = 1_500;
const SETTLE_POLL_MS = 50;
const SETTLE_QUIET_MS = 120;

export class DesktopComputer implements Computer {
  readonly kind = "desktop" as const;
  readonly logicalSize: Size;
  /** About a word of text: less is a blinking caret or noise, which the diff leaves out anyway. */
  readonly minChangedPixels = 100;
  private readonly listeners = new Set<LiveFrameListener>();
  private live: NodeJS.Timeout | null = null;
  private closed = false;
  private lastInputAt = -Infinity;
  /** Where the computer itself last put the pointer. */
  private placed: Point | null = null;

  private constructor(
    private readonly x: X11Session,
    private readonly keyboard: Keyboard,
    private readonly options: DesktopComputerOptions,
  ) {
    this.logicalSize = x.size;
  }

  static async open(options: DesktopComputerOptions): Promise<DesktopComputer> {
    const x = await X11Session.connect(options.display);
    return new DesktopComputer(x, await Keyboard.open(x), options);
  }

  async screenshot(): Promise<Screenshot> {
    const { width, height } = this.logicalSize;
    const data = await sharp(toRgbx(await this.x.capture()), { raw: { width, height, channels: 4 } })
      .removeAlpha()
      .jpeg({ quality: this.options.jpegQuality })
      .toBuffer();
    return { data, mimeType: "image/jpeg", width, height };
  }

  async move(x: number, y: number): Promise<void> {
    await this.beforeInput();
    this.pointTo(x, y);
    await this.x.sync();
  }

  async click(x: number, y: number, button: MouseButton = "left"): Promise<void> {
    await this.beforeInput();
    this.pointTo(x, y);
    this.button(BUTTONS[button]);
    await this.x.sync();
  }

  async doubleClick(x: number, y: number): Promise<void> {
    await this.beforeInput();
    this.pointTo(x, y);
    this.button(BUTTONS.left);
    this.button(BUTTONS.left);
    await this.x.sync();
  }

  async drag(from: Point, to: Point): Promise<void> {
    await this.beforeInput();
    const { xtest, root } = this.x;
    this.pointTo(from.x, from.y);
    xtest.FakeInput(xtest.ButtonPress, BUTTONS.left, 0, root, 0, 0);
    await this.x.sync();
    // Through the points between, as a hand would: programs watch the motion to start a drag.
    for (let step = 1; step <= 10; step++) this.pointTo(from.x + ((to.x - from.x) * step) / 10, from.y + ((to.y - from.y) * step) / 10);
    await this.x.sync();
    xtest.FakeInput(xtest.ButtonRelease, BUTTONS.left, 0, root, 0, 0);
    await this.x.sync();
  }

  async type(text: string): Promise<void> {
    await this.beforeInput();
    await this.keyboard.type(text);
  }

  async keypress(keys: string[]): Promise<void> {
    await this.beforeInput();
    await this.keyboard.press(keys);
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number): Promise<void> {
    await this.beforeInput();
    this.pointTo(x, y);
    const notches = (pixels: number) => (pixels === 0 ? 0 : Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_NOTCH)));
    for (let n = 0; n < notches(scrollY); n++) this.button(scrollY > 0 ? WHEEL.down : WHEEL.up);
    for (let n = 0; n < notches(scrollX); n++) this.button(scrollX > 0 ? WHEEL.right : WHEEL.left);
    await this.x.sync();
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
    throw new AppError("ACTION_FAILED", "A desktop has no address bar of its own: open a browser on it to go to an address.");
  }

  /**
   * Until the screen has stayed the same for SETTLE_QUIET_MS, within a cap: the programs have
   * drawn what the action started (a program that has not read its input yet has drawn nothing).
   */
  async settle(): Promise<void> {
    const deadline = performance.now() + SETTLE_CAP_MS;
    let previous = digest(await this.x.capture());
    let quietSince = performance.now();
    while (performance.now() < deadline) {
      await delay(SETTLE_POLL_MS);
      const now = digest(await this.x.capture());
      if (now !== previous) quietSince = performance.now();
      else if (performance.now() - quietSince >= SETTLE_QUIET_MS) return;
      previous = now;
    }
  }

  onLiveFrame(listener: LiveFrameListener): () => void {
    this.listeners.add(listener);
    this.live ??= setInterval(() => void this.publishLive(), 1000 / Math.max(this.options.liveFps, 0.1));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.live) {
        clearInterval(this.live);
        this.live = null;
      }
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.live) clearInterval(this.live);
    await this.keyboard.restore().catch(() => undefined);
    this.x.close();
    await this.options.onClose?.();
  }

  private async publishLive(): Promise<void> {
    if (this.closed) return;
    const frame = await this.screenshot().catch(() => null);
    if (frame) for (const listener of this.listeners) listener(frame);
  }

  /**
   * The fail-safe of seed 003 §5-1: a person who moves the pointer to the screen's top-left corner
   * stops the task. Then the minimum interval since the last input.
   */
  private async beforeInput(): Promise<void> {
    const pointer = await this.x.pointer();
    const ours = this.placed !== null && this.placed.x === pointer.x && this.placed.y === pointer.y;
    if (pointer.x <= 0 && pointer.y <= 0 && !ours) throw new StopRequested("the pointer was moved to the top-left corner of the screen (the fail-safe)");
    // Timers may fire a little early: wait again until the interval has really passed.
    for (let wait = this.lastInputAt + this.options.minIntervalMs - performance.now(); wait > 0; wait = this.lastInputAt + this.options.minIntervalMs - performance.now()) await delay(wait);
    this.lastInputAt = performance.now();
  }

  private pointTo(x: number, y: number): void {
    const { width, height } = this.logicalSize;
    if (x < 0 || y < 0 || x >= width || y >= height) {
      throw new AppError("ACTION_FAILED", `(${Math.round(x)}, ${Math.round(y)}) is outside the ${width}×${height} screen.`);
    }
    this.placed = { x: Math.round(x), y: Math.round(y) };
    this.x.xtest.FakeInput(this.x.xtest.MotionNotify, 0, 0, this.x.root, this.placed.x, this.placed.y);
  }

  private button(button: number): void {
    const { xtest, root } = this.x;
    xtest.FakeInput(xtest.ButtonPress, button, 0, root, 0, 0);
    xtest.FakeInput(xtest.ButtonRelease, button, 0, root, 0, 0);
  }
}

/** X's 32-bit pixels are B, G, R, unused: swapped in place to R, G, B, unused. */
function toRgbx(pixels: Buffer): Buffer {
  for (let i = 0; i + 2 < pixels.length; i += 4) {
    const blue = pixels[i]!;
    pixels[i] = pixels[i + 2]!;
    pixels[i + 2] = blue;
  }
  return pixels;
}

function digest(pixels: Buffer): string {
  return createHash("sha1").update(pixels).digest("hex");
}
