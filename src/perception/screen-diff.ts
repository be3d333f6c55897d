// Did the screen change? A grayscale difference of two captures (seed 002 §2.5): a pixel counts
// as changed when its gray level moved by more than `pixelThreshold`; the screen changed when the
// share of changed pixels exceeds `changeRatio`. The pointer's surroundings and a text caret's
// blink are not changes.
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

export async function diffScreens(before: Screenshot, after: Screenshot, options: DiffOptions): Promise<ScreenDiff> {
  if (before.width !== after.width || before.height !== after.height) {
    return { changed: true, ratio: 1, changedPixels: after.width * after.height, box: { x: 0, y: 0, width: after.width, height: after.height } };
  }
  const [a, b] = await Promise.all([gray(before), gray(after)]);
  const { width, height } = after;
  const ignored = (options.ignorePoints ?? []).map((p) => ({
    x0: p.x - POINTER_RADIUS,
    x1: p.x + POINTER_RADIUS,
    y0: p.y - POINTER_RADIUS,
    y1: p.y + POINTER_RADIUS,
  }));
  let changedPixels = 0;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (Math.abs(a[row + x]! - b[row + x]!) <= options.pixelThreshold) continue;
      if (ignored.some((r) => x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1)) continue;
      changedPixels++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const box = changedPixels > 0 ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : null;
  if (box && box.width <= CARET_MAX_WIDTH && box.height <= CARET_MAX_HEIGHT) {
    return { changed: false, ratio: 0, changedPixels: 0, box: null };
  }
  const ratio = changedPixels / (width * height);
  return { changed: ratio > options.changeRatio, ratio, changedPixels, box };
}

async function gray(shot: Screenshot): Promise<Uint8Array> {
  const { data } = await sharp(shot.data).greyscale().raw().toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}
