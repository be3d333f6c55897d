// What comes before and around every input on a desktop, whatever sends it (XTest, nut-js): the
// fail-safe of seed 003 §5-1, the minimum interval between inputs (§5-3), points checked against
// the screen, and the shape of a drag and of a scroll.
import { setTimeout as delay } from "node:timers/promises";
import { AppError, StopRequested } from "../../core/errors.ts";
import type { Point, Size } from "../../perception/coordinates.ts";
import { WHEEL_NOTCH_PX } from "../../protocol/index.ts";

/** What a desktop says when asked to open an address. */
export function refuseNavigate(): never {
  throw new AppError("ACTION_FAILED", "A desktop has no address bar of its own: open a browser on it to go to an address.");
}

const DRAG_STEPS = 10;

export class InputGuard {
  private lastInputAt = -Infinity;
  /** Where the computer itself last put the pointer, in the pointer's own space. */
  private placed: Point | null = null;

  constructor(
    private readonly minIntervalMs: number,
    /** Where the pointer is now, in the space `placedAt` is told. */
    private readonly pointer: () => Promise<Point>,
  ) {}

  /**
   * The fail-safe: a person who moves the pointer to the screen's top-left corner stops the task.
   * Then the minimum interval since the last input.
   */
  async before(): Promise<void> {
    const pointer = await this.pointer();
    const ours = this.placed !== null && this.placed.x === pointer.x && this.placed.y === pointer.y;
    if (pointer.x <= 0 && pointer.y <= 0 && !ours) throw new StopRequested("the pointer was moved to the top-left corner of the screen (the fail-safe)");
    // Timers may fire a little early: wait again until the interval has really passed.
    for (let wait = this.lastInputAt + this.minIntervalMs - performance.now(); wait > 0; wait = this.lastInputAt + this.minIntervalMs - performance.now()) await delay(wait);
    this.lastInputAt = performance.now();
  }

  /** The computer put the pointer here: the corner is no stop signal when it was the computer's move. */
  placedAt(point: Point): void {
    this.placed = { ...point };
  }
}

/** Refuses a point off the screen with an error the model can act on. */
export function checkOnScreen(x: number, y: number, size: Size): void {
  if (x < 0 || y < 0 || x >= size.width || y >= size.height) {
    throw new AppError("ACTION_FAILED", `(${Math.round(x)}, ${Math.round(y)}) is outside the ${size.width}×${size.height} screen.`);
  }
}

/** The points a drag passes through after its start, its end last: programs watch the motion to start a drag. */
export function dragPath(from: Point, to: Point): Point[] {
  return Array.from({ length: DRAG_STEPS }, (_, i) => ({
    x: from.x + ((to.x - from.x) * (i + 1)) / DRAG_STEPS,
    y: from.y + ((to.y - from.y) * (i + 1)) / DRAG_STEPS,
  }));
}

/** Wheel notches for a scroll of so many pixels: at least one for any scroll, none for none. */
export function wheelNotches(pixels: number): number {
  return pixels === 0 ? 0 : Math.max(1, Math.round(Math.abs(pixels) / WHEEL_NOTCH_PX));
}
