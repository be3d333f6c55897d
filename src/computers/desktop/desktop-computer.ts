// A whole desktop as a computer (seeds 002 and 003): an X11 display driven through one X
// connection — XTest for the pointer and the keyboard, GetImage for the screen — so no action
// starts a process. Screen pixels are the input space; nothing here knows a page's structure,
// so every planner works on it through the screenshot alone.
import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import sharp from "sharp";
import { AppError } from "../../core/errors.ts";
import type { Point, Size } from "../../perception/coordinates.ts";
import type { Computer, LiveFrameListener, MouseButton, Screenshot } from "../computer.ts";
import { Keyboard } from "./keyboard.ts";
import { X11Session } from "./x11-session.ts";

export interface DesktopComputerOptions {
  /** The X display to drive (`:0`, or a virtual one's name). */
  display: string;
  jpegQuality: number;
  /** Live frames a second while someone watches. */
  liveFps: number;
  /** Called on close: the virtual display the computer runs on, when it owns one. */
  onClose?: () => Promise<void>;
}

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
/** X wheel buttons: up, down, left, right. One notch scrolls about this many pixels. */
const WHEEL = { up: 4, down: 5, left: 6, right: 7 } as const;
const PIXELS_PER_NOTCH = 40;
const SETTLE_CAP_MS = 1_500;
const SETTLE_POLL_MS = 60;

export class DesktopComputer implements Computer {
  readonly kind = "desktop" as const;
  readonly logicalSize: Size;
  private readonly listeners = new Set<LiveFrameListener>();
  private live: NodeJS.Timeout | null = null;
  private closed = false;

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
    this.pointTo(x, y);
    await this.x.sync();
  }

  async click(x: number, y: number, button: MouseButton = "left"): Promise<void> {
    this.pointTo(x, y);
    this.button(BUTTONS[button]);
    await this.x.sync();
  }

  async doubleClick(x: number, y: number): Promise<void> {
    this.pointTo(x, y);
    this.button(BUTTONS.left);
    this.button(BUTTONS.left);
    await this.x.sync();
  }

  async drag(from: Point, to: Point): Promise<void> {
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
    await this.keyboard.type(text);
  }

  async keypress(keys: string[]): Promise<void> {
    await this.keyboard.press(keys);
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number): Promise<void> {
    this.pointTo(x, y);
    const notches = (pixels: number) => (pixels === 0 ? 0 : Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_NOTCH)));
    for (let n = 0; n < notches(scrollY); n++) this.button(scrollY > 0 ? WHEEL.down : WHEEL.up);
    for (let n = 0; n < notches(scrollX); n++) this.button(scrollX > 0 ? WHEEL.right : WHEEL.left);
    await this.x.sync();
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

  /** Until two captures a moment apart are the same, within a cap: the programs have drawn what the action started. */
  async settle(): Promise<void> {
    const deadline = performance.now() + SETTLE_CAP_MS;
    let previous = digest(await this.x.capture());
    while (performance.now() < deadline) {
      await delay(SETTLE_POLL_MS);
      const now = digest(await this.x.capture());
      if (now === previous) return;
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
    this.x.close();
    await this.options.onClose?.();
  }

  private async publishLive(): Promise<void> {
    if (this.closed) return;
    const frame = await this.screenshot().catch(() => null);
    if (frame) for (const listener of this.listeners) listener(frame);
  }

  private pointTo(x: number, y: number): void {
    const { width, height } = this.logicalSize;
    if (x < 0 || y < 0 || x >= width || y >= height) {
      throw new AppError("ACTION_FAILED", `(${Math.round(x)}, ${Math.round(y)}) is outside the ${width}×${height} screen.`);
    }
    this.x.xtest.FakeInput(this.x.xtest.MotionNotify, 0, 0, this.x.root, Math.round(x), Math.round(y));
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
