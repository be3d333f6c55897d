// The screen page's mouse and keyboard, through Playwright's input (CDP `Input.dispatch*`): points
// come in screenshot pixels and land in CSS pixels; the pointer is remembered where the last input
// left it. Whether an input may start, and what a dead browser makes of it, is the computer's.
import { setTimeout as delay } from "node:timers/promises";
import type { Page } from "playwright-core";
import type { Progress } from "../../core/progress.ts";
import type { Point } from "../../perception/coordinates.ts";
import { normalizeChord } from "../../protocol/keys.ts";
import type { MouseButton } from "../computer.ts";

const DRAG_STEPS = 12;

/**
 * Browser shortcuts that keys sent over CDP bring to the page but not to the browser, which would
 * act on them (measured: Alt+Left leaves the page where it is): done here after the keys, as
 * Chromium does when the page lets them through.
 */
const BROWSER_SHORTCUTS: Record<string, (page: Page, timeout: number) => Promise<unknown>> = {
  "Alt+ArrowLeft": (page, timeout) => page.goBack({ waitUntil: "commit", timeout }),
  "Alt+ArrowRight": (page, timeout) => page.goForward({ waitUntil: "commit", timeout }),
  F5: (page, timeout) => page.reload({ waitUntil: "commit", timeout }),
};

export interface PageInputOptions {
  /** The page the input goes to: the screen's, which may change between inputs. */
  page: () => Page;
  /** A point in screenshot pixels, in the page's CSS pixels. */
  toCss: (x: number, y: number) => Point;
  deviceScaleFactor: number;
  navigationTimeoutMs: number;
}

export class PageInput {
  private at: Point = { x: 0, y: 0 };

  constructor(private readonly options: PageInputOptions) {}

  /** Where the last input left the pointer, in screenshot pixels. */
  get cursor(): Point {
    return { ...this.at };
  }

  private get page(): Page {
    return this.options.page();
  }

  async move(x: number, y: number): Promise<void> {
    const p = this.options.toCss(x, y);
    await this.page.mouse.move(p.x, p.y);
    this.at = { x, y };
  }

  async click(x: number, y: number, button: MouseButton, count: number): Promise<void> {
    const p = this.options.toCss(x, y);
    await this.page.mouse.click(p.x, p.y, { button, clickCount: count });
    this.at = { x, y };
  }

  async doubleClick(x: number, y: number): Promise<void> {
    const p = this.options.toCss(x, y);
    await this.page.mouse.dblclick(p.x, p.y);
    this.at = { x, y };
  }

  /** Moves in steps, checking between them; a drag cancelled midway lets go of the button where it is. */
  async drag(from: Point, to: Point, progress?: Progress): Promise<void> {
    const a = this.options.toCss(from.x, from.y);
    const b = this.options.toCss(to.x, to.y);
    await this.page.mouse.move(a.x, a.y);
    await this.page.mouse.down();
    try {
      for (let step = 1; step <= DRAG_STEPS; step++) {
        progress?.check();
        await this.page.mouse.move(a.x + ((b.x - a.x) * step) / DRAG_STEPS, a.y + ((b.y - a.y) * step) / DRAG_STEPS);
      }
    } finally {
      await this.page.mouse.up();
    }
    this.at = { ...to };
  }

  async scroll(x: number, y: number, scrollX: number, scrollY: number): Promise<void> {
    const p = this.options.toCss(x, y);
    const dpr = this.options.deviceScaleFactor;
    const { mouse } = this.page;
    // Sent together, in order, as Playwright sends a click's move and press: a pointer move alone
    // waits for the page's next frame (measured: 17 ms), and the wheel after it for another.
    await Promise.all([mouse.move(p.x, p.y), mouse.wheel(scrollX / dpr, scrollY / dpr)]);
    this.at = { x, y };
  }

  /** One character at a time, checking between them: typing cancelled midway adds nothing after it. */
  async type(text: string, progress?: Progress): Promise<void> {
    for (const char of text) {
      progress?.check();
      await this.page.keyboard.type(char);
    }
  }

  async keypress(keys: string[]): Promise<void> {
    const chord = normalizeChord(keys);
    const shortcut = BROWSER_SHORTCUTS[chord.join("+")];
    const last = chord.pop();
    if (last === undefined) return;
    for (const modifier of chord) await this.page.keyboard.down(modifier);
    try {
      await this.page.keyboard.press(last);
    } finally {
      for (const modifier of chord.reverse()) await this.page.keyboard.up(modifier);
    }
    // Where it went, or that nothing happened (no page to go back to), is the effect check's to see.
    await shortcut?.(this.page, this.options.navigationTimeoutMs).catch(() => undefined);
  }

  async holdKeys(keys: string[], ms: number, progress?: Progress): Promise<void> {
    const chord = normalizeChord(keys);
    const held: string[] = [];
    try {
      for (const key of chord) {
        await this.page.keyboard.down(key);
        held.push(key);
      }
      await (progress ? progress.sleep(ms) : delay(ms));
    } finally {
      for (const key of held.reverse()) await this.page.keyboard.up(key);
    }
  }
}
