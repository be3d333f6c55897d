// What every desktop computer does with its screen, whatever captures it (X11 GetImage, nut-js):
// 32-bit BGRX pixels to a JPEG, waiting until the screen has settled, and live frames at a rate.
import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import sharp from "sharp";
import type { LiveFrameListener, Screenshot } from "../computer.ts";

/** About a word of text: less is a blinking caret or noise, which the diff leaves out anyway. */
export const DESKTOP_MIN_CHANGED_PIXELS = 100;
/** Seed 002 §5 looks for a click's effect a second after it. */
export const DESKTOP_LATE_EFFECT_MS = 1_000;

/** A capture as 32-bit pixels: blue, green, red, one unused byte; `stride` bytes a row (rows may be padded). */
export interface BgrxPixels {
  data: Buffer;
  width: number;
  height: number;
  stride: number;
}

const SETTLE_CAP_MS = 1_500;
const SETTLE_POLL_MS = 50;
const SETTLE_QUIET_MS = 120;

/** The capture as a JPEG of its own size. The pixels' blue and red are swapped in place. */
export async function bgrxToJpeg(pixels: BgrxPixels, quality: number): Promise<Screenshot> {
  const { data, width, height, stride } = pixels;
  for (let i = 0; i + 2 < data.length; i += 4) {
    const blue = data[i]!;
    data[i] = data[i + 2]!;
    data[i + 2] = blue;
  }
  // A padded row is read as a wider image, and the padding cut off.
  let image = sharp(data, { raw: { width: stride / 4, height, channels: 4 } });
  if (stride / 4 !== width) image = image.extract({ left: 0, top: 0, width, height });
  const jpeg = await image.removeAlpha().jpeg({ quality }).toBuffer();
  return { data: jpeg, mimeType: "image/jpeg", width, height };
}

/**
 * Until the screen has stayed the same for SETTLE_QUIET_MS, within a cap: the programs have
 * drawn what the action started (a program that has not read its input yet has drawn nothing).
 */
export async function settleScreen(capture: () => Promise<Buffer>): Promise<void> {
  const deadline = performance.now() + SETTLE_CAP_MS;
  let previous = digest(await capture());
  let quietSince = performance.now();
  while (performance.now() < deadline) {
    await delay(SETTLE_POLL_MS);
    const now = digest(await capture());
    if (now !== previous) quietSince = performance.now();
    else if (performance.now() - quietSince >= SETTLE_QUIET_MS) return;
    previous = now;
  }
}

/**
 * Screenshots at a rate while anyone listens; none while nobody does, and none once stopped. One
 * capture at a time: the next is taken a frame's time after the last one began, or as soon as it
 * ended when it took longer, so a slow screen (a busy machine) lowers the rate instead of piling
 * captures onto the X server.
 */
export class LiveFrames {
  private readonly listeners = new Set<LiveFrameListener>();
  private timer: NodeJS.Timeout | null = null;
  private capturing = false;
  private stopped = false;

  constructor(
    private readonly fps: number,
    private readonly capture: () => Promise<Screenshot>,
  ) {}

  /** Starts delivering frames to the listener; returns a function that stops them. */
  add(listener: LiveFrameListener): () => void {
    this.listeners.add(listener);
    if (!this.timer && !this.capturing) this.schedule(this.frameMs);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.clear();
    };
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private get frameMs(): number {
    return 1000 / Math.max(this.fps, 0.1);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.publish(), ms);
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async publish(): Promise<void> {
    this.timer = null;
    if (this.stopped || this.listeners.size === 0) return;
    const began = performance.now();
    this.capturing = true;
    const frame = await this.capture().catch(() => null);
    this.capturing = false;
    if (this.stopped || this.listeners.size === 0) return;
    if (frame) for (const listener of this.listeners) listener(frame);
    if (!this.timer) this.schedule(Math.max(0, this.frameMs - (performance.now() - began)));
  }
}

function digest(pixels: Buffer): string {
  return createHash("sha1").update(pixels).digest("hex");
}
