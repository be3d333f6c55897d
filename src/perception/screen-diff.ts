// Did the screen change? A grayscale difference of two captures (seed 002 §2.5): a pixel counts
// as changed when its gray level moved by more than `pixelThreshold`; the screen changed when the
// share of changed pixels exceeds `changeRatio`. The pointer's surroundings and a text caret's
// blink are not changes. Reading a capture's gray levels (decoding a full-size JPEG) is most of the
// cost, so captures whose bytes are the same are not read at all, and a `ScreenReader` keeps what
// it read: the screen after one action is the screen before the next.
import sharp from "sharp";
import type { Point } from "./coordinates.ts";
import type { Screenshot } from "./screenshot.ts";

export interface DiffOptions {
  pixelThreshold: number;
  changeRatio: number;
  /** Pointer positions (screenshot pixels) whose surroundings are ignored. */
  ignorePoints?: Point[];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenDiff {
  changed: boolean;
  /** Changed pixels / all pixels, after the ignored areas are removed. */
  ratio: number;
  changedPixels: number;
  /** The smallest box holding every changed pixel, or null. */
  box: Box | null;
}

const POINTER_RADIUS = 24;
// A caret is a thin vertical bar: at most this wide and tall.
const CARET_MAX_WIDTH = 3;
const CARET_MAX_HEIGHT = 64;

/** A capture's gray levels, a byte a pixel, row by row. */
export type GrayLevels = (shot: Screenshot) => Promise<Uint8Array>;

const NO_CHANGE: ScreenDiff = { changed: false, ratio: 0, changedPixels: 0, box: null };

/** `gray`: how a capture is read; each is decoded anew unless a `ScreenReader` is given. */
export async function diffScreens(before: Screenshot, after: Screenshot, options: DiffOptions, gray: GrayLevels = decodeGray): Promise<ScreenDiff> {
  if (before.width !== after.width || before.height !== after.height) {
    return { changed: true, ratio: 1, changedPixels: after.width * after.height, box: { x: 0, y: 0, width: after.width, height: after.height } };
  }
  // The same bytes decode to the same pixels: an unchanged screen, a static page, costs nothing.
  if (before.mimeType === after.mimeType && before.data.equals(after.data)) return { ...NO_CHANGE };
  const [a, b] = await Promise.all([gray(before), gray(after)]);
  const { width, height } = after;
  const ignored = (options.ignorePoints ?? []).map((p) => ({
    x0: p.x - POINTER_RADIUS,
    x1: p.x + POINTER_RADIUS,
    y0: p.y - POINTER_RADIUS,
    y1: p.y + POINTER_RADIUS,
  }));
  const threshold = options.pixelThreshold;
  const pixels = width * height;
  // Four pixels at a time: where all four are the same, as on most of a screen, none is looked at.
  const words = pixels >> 2;
  const [wordsA, wordsB] = [asWords(a, words), asWords(b, words)];
  let changedPixels = 0;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let w = 0; w <= words; w++) {
    if (w < words && wordsA[w] === wordsB[w]) continue;
    // The last round takes the pixels after the last whole word.
    const end = w < words ? (w << 2) + 4 : pixels;
    for (let i = w << 2; i < end; i++) {
      if (Math.abs(a[i]! - b[i]!) <= threshold) continue;
      const y = Math.floor(i / width);
      const x = i - y * width;
      if (ignored.some((r) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1)) continue;
      changedPixels++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const box = changedPixels > 0 ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : null;
  if (box && box.width <= CARET_MAX_WIDTH && box.height <= CARET_MAX_HEIGHT) return { ...NO_CHANGE };
  const ratio = changedPixels / (width * height);
  return { changed: ratio > options.changeRatio, ratio, changedPixels, box };
}

/**
 * Reads captures' gray levels for the comparisons of one screen, keeping the two it used last
 * (the screen before and after an action): the next action's screen before is the last one's
 * after, and a click tried again a few pixels off is compared with the same screen before; neither
 * is decoded again. Held by the one who compares, so the decodes go with it.
 */
export class ScreenReader {
  /** Least recently used first. */
  private kept: { shot: Screenshot; gray: Promise<Uint8Array> }[] = [];

  constructor(private readonly decode: GrayLevels = decodeGray) {}

  diff(before: Screenshot, after: Screenshot, options: DiffOptions): Promise<ScreenDiff> {
    return diffScreens(before, after, options, (shot) => this.read(shot));
  }

  /**
   * Starts reading a capture a comparison will likely need (the screen before an action), so that it
   * is decoded on the thread pool while the screen after is still being captured, not after.
   */
  prepare(shot: Screenshot): void {
    this.read(shot).catch(() => undefined);
  }

  private read(shot: Screenshot): Promise<Uint8Array> {
    const known = this.kept.find((k) => k.shot === shot) ?? { shot, gray: this.decode(shot) };
    this.kept = [...this.kept.filter((k) => k !== known).slice(-1), known];
    return known.gray;
  }
}

/** The first `count` groups of four bytes as 32-bit words (copied when not aligned to 4 bytes). */
function asWords(bytes: Uint8Array, count: number): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, count);
}

async function decodeGray(shot: Screenshot): Promise<Uint8Array> {
  const { data } = await sharp(shot.data).greyscale().raw().toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}
