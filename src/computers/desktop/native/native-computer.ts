// The real desktop of the machine the server runs on, on Windows and macOS, through nut-js
// (libnut): its own screen, never a virtual one. Never run on Windows or macOS (no such machine
// here); test/integration/native-desktop.test.ts runs it on libnut's X11 backend. Points are pixels of the capture; a Retina or scaled screen
// captures more pixels than its input space has points, so every point is mapped between the two
// through perception/coordinates.
import type { Button } from "@nut-tree-fork/nut-js";
import { setTimeout as delay } from "node:timers/promises";
import { AppError } from "../../../core/errors.ts";
import type { Progress } from "../../../core/progress.ts";
import type { Point, Size } from "../../../perception/coordinates.ts";
import { captionOnScreen } from "../../../perception/pixels/caption.ts";
import type { ActiveWindow, Computer, LiveFrameListener, MouseButton, Screenshot } from "../../computer.ts";
import { checkOnScreen, dragPath, InputGuard, refuseNavigate } from "../desktop-input.ts";
import { bgrxToJpeg, DESKTOP_LATE_EFFECT_MS, DESKTOP_MIN_CHANGED_PIXELS, LiveFrames, settleScreen } from "../desktop-screen.ts";
import { NativeSpaces, nutChord, typingRuns, wheelAmount } from "./nut-input.ts";

type Nut = typeof import("@nut-tree-fork/nut-js");

export interface NativeComputerOptions {
  jpegQuality: number;
  /** Live frames a second while someone watches. */
  liveFps: number;
  /** At least this long between two inputs (seed 003 §5-3); 0 for none. */
  minIntervalMs: number;
}

/** A short pause after each key and click inside libnut, robotjs's default (nut-js's own is 300 ms a key). */
const LIBNUT_DELAY_MS = 10;

export class NativeComputer implements Computer {
  readonly kind = "desktop" as const;
  readonly minChangedPixels = DESKTOP_MIN_CHANGED_PIXELS;
  readonly lateEffectMs = DESKTOP_LATE_EFFECT_MS;
  /** The machine's own screen: its programs run as the person, with the server's reach. */
  readonly fenced = false;
  private readonly live: LiveFrames;
  private readonly guard: InputGuard;
  private readonly spaces: NativeSpaces;

  private constructor(
    private readonly nut: Nut,
    /** The input space, in points. */
    readonly logicalSize: Size,
    /** The capture, in pixels. */
    private readonly pixels: Size,
    private readonly options: NativeComputerOptions,
    private readonly platform: NodeJS.Platform,
  ) {
    this.spaces = new NativeSpaces(pixels, logicalSize);
    this.live = new LiveFrames(options.liveFps, () => this.screenshot());
    // The pointer in points, where `placedAt` is told the computer's own moves.
    this.guard = new InputGuard(options.minIntervalMs, () => nut.mouse.getPosition());
  }

  /** Loads nut-js (an optional dependency) and measures the screen. */
  static async open(options: NativeComputerOptions, platform: NodeJS.Platform = process.platform): Promise<NativeComputer> {
    const nut = await loadNut();
    // The guard paces inputs; nut-js's own waits would only slow typing down.
    nut.keyboard.config.autoDelayMs = 0;
    nut.mouse.config.autoDelayMs = 0;
    nut.providerRegistry.getKeyboard().setKeyboardDelay(LIBNUT_DELAY_MS);
    nut.providerRegistry.getMouse().setMouseDelay(LIBNUT_DELAY_MS);
    try {
      const logical = { width: await nut.screen.width(), height: await nut.screen.height() };
      const capture = await nut.screen.grab();
      return new NativeComputer(nut, logical, { width: capture.width, height: capture.height }, options, platform);
    } catch (error) {
      throw new AppError(
        "COMPUTER_UNAVAILABLE",
        `Could not read this machine's screen (${messageOf(error)}). On macOS, allow Screen Recording and Accessibility for the program that runs the server.`,
      );
    }
  }

  async screenshot(): Promise<Screenshot> {
    const image = await this.nut.screen.grab();
    return bgrxToJpeg({ data: image.data, width: image.width, height: image.height, stride: image.byteWidth }, this.options.jpegQuality);
  }

  async labelAt(x: number, y: number): Promise<string | null> {
    const image = await this.nut.screen.grab();
    return captionOnScreen(image.data, image, image.byteWidth, { x, y });
  }

  async move(x: number, y: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    await this.pointTo(x, y);
  }

  async click(x: number, y: number, button: MouseButton = "left", count = 1, progress?: Progress): Promise<void> {
    await this.before(progress);
    await this.pointTo(x, y);
    for (let n = 0; n < count; n++) await this.nut.mouse.click(this.button(button));
  }

  async doubleClick(x: number, y: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    await this.pointTo(x, y);
    await this.nut.mouse.doubleClick(this.button("left"));
  }

  async drag(from: Point, to: Point, progress?: Progress): Promise<void> {
    await this.before(progress);
    // Both ends checked before the button goes down: a refused end must not leave it held.
    checkOnScreen(to.x, to.y, this.pixels);
    await this.pointTo(from.x, from.y);
    const left = this.button("left");
    await this.nut.mouse.pressButton(left);
    try {
      for (const point of dragPath(from, to)) {
        progress?.check();
        await this.pointTo(point.x, point.y);
      }
    } finally {
      await this.nut.mouse.releaseButton(left);
    }
  }

  async type(text: string, progress?: Progress): Promise<void> {
    await this.before(progress);
    const { keyboard, Key } = this.nut;
    for (const run of typingRuns(text)) {
      progress?.check();
      if (run.type === "key") await keyboard.type(Key[run.key]);
      else await keyboard.type(run.text);
    }
  }

  async keypress(keys: string[], progress?: Progress): Promise<void> {
    await this.before(progress);
    const chord = nutChord(keys, this.nut.Key);
    switch (chord.type) {
      case "keys":
        if (chord.keys.length > 0) await this.nut.keyboard.type(...chord.keys);
        return;
      case "text":
        await this.nut.keyboard.type(chord.text);
        return;
      case "missing":
        throw new AppError("ACTION_FAILED", `There is no key ${JSON.stringify(chord.key)} on this keyboard.`);
    }
  }

  async holdKeys(keys: string[], ms: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    const chord = nutChord(keys, this.nut.Key);
    if (chord.type !== "keys") throw new AppError("ACTION_FAILED", `${keys.join("+")} cannot be held down on this keyboard.`);
    await this.nut.keyboard.pressKey(...chord.keys);
    try {
      await (progress ? progress.sleep(ms) : delay(ms));
    } finally {
      await this.nut.keyboard.releaseKey(...chord.keys);
    }
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number, progress?: Progress): Promise<void> {
    await this.before(progress);
    await this.pointTo(x, y);
    const { mouse } = this.nut;
    const perPixel = this.spaces.pointsPerPixel;
    const down = wheelAmount(scrollY, perPixel.y, this.platform);
    const right = wheelAmount(scrollX, perPixel.x, this.platform);
    if (scrollY !== 0) await (scrollY > 0 ? mouse.scrollDown(down) : mouse.scrollUp(down));
    if (scrollX !== 0) await (scrollX > 0 ? mouse.scrollRight(right) : mouse.scrollLeft(right));
  }

  async cursorPosition(): Promise<Point> {
    return this.spaces.toCapture(await this.nut.mouse.getPosition());
  }

  /** The focused window's title; nut-js does not name its application, so `app` stays empty. */
  async activeWindow(): Promise<ActiveWindow | null> {
    try {
      const window = await this.nut.getActiveWindow();
      return { title: await window.getTitle(), app: "" };
    } catch {
      // No window has the focus, or it closed between the two questions.
      return null;
    }
  }

  async currentUrl(): Promise<string | null> {
    return null;
  }

  /** The fail-safe and the interval between inputs, then whether the action is still wanted: a cancelled one is not started. */
  private async before(progress: Progress | undefined): Promise<void> {
    await this.guard.before();
    progress?.check();
  }

  async navigate(): Promise<void> {
    refuseNavigate();
  }

  async settle(): Promise<void> {
    await settleScreen(async () => (await this.nut.screen.grab()).data);
  }

  onLiveFrame(listener: LiveFrameListener): () => void {
    return this.live.add(listener);
  }

  /** Stops the live frames; the screen is the person's and stays as it is. */
  async close(): Promise<void> {
    this.live.stop();
  }

  /** Puts the pointer on a point of the capture, mapped onto the screen's points. */
  private async pointTo(x: number, y: number): Promise<void> {
    const point = this.spaces.toPoints(x, y);
    this.guard.placedAt(point);
    await this.nut.mouse.setPosition(new this.nut.Point(point.x, point.y));
  }

  private button(button: MouseButton): Button {
    const { Button } = this.nut;
    return { left: Button.LEFT, middle: Button.MIDDLE, right: Button.RIGHT }[button];
  }
}

async function loadNut(): Promise<Nut> {
  try {
    return await import("@nut-tree-fork/nut-js");
  } catch (error) {
    throw new AppError(
      "COMPUTER_UNAVAILABLE",
      `This machine's desktop is driven through the optional package @nut-tree-fork/nut-js, which did not load (${messageOf(error)}): run npm install without --omit=optional.`,
    );
  }
}

/** nut-js rejects with strings as well as errors. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
