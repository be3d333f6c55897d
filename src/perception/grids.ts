// The coordinate conventions models write points in, as data: each maps a point it names onto
// the pixels of the image the model was sent, and back. Adapters choose one (models/dialects.ts)
// instead of scaling points themselves.
//
//   pixels        absolute pixels of the image sent
//   norm999       0–999 on each axis, a thousandth of the image per step (Gemini's grid)
//   norm1000      0–1000 on each axis (Qwen3-VL, UI-TARS 1.0, GLM-V)
//   relative      0–1 fractions of the image
//   smart_resize  absolute pixels of the image as Qwen2.5-VL's processor resized it
import type { GridName } from "../core/config.ts";
import type { Point, Size } from "./coordinates.ts";

export type { GridName };

export interface Grid {
  readonly name: GridName;
  /** A point the model named → pixels of the image it was sent (rounded, kept inside the image). */
  toPixels(point: Point, image: Size): Point;
  /** A pixel of the image sent → the point the model would name for it. */
  fromPixels(point: Point, image: Size): Point;
  /** The space the model names points in, for a prompt that states it (`1000×1000`). */
  extent(image: Size): Size;
}

/** Qwen2.5-VL's resize: the processor's defaults (factor 28, 4 to 16384 patches of 28×28). */
export interface SmartResizeOptions {
  factor: number;
  minPixels: number;
  maxPixels: number;
}

export const QWEN25_SMART_RESIZE: SmartResizeOptions = { factor: 28, minPixels: 4 * 28 * 28, maxPixels: 16384 * 28 * 28 };

const MAX_RATIO = 200;

/**
 * Qwen's `smart_resize` (qwen-vl-utils, vision_process.py) as published: both sides a multiple
 * of `factor`, the area within [minPixels, maxPixels], the aspect kept as closely as possible.
 * Python's `round` rounds halves to even, and so does this.
 */
export function smartResize(size: Size, options: SmartResizeOptions = QWEN25_SMART_RESIZE): Size {
  const { factor, minPixels, maxPixels } = options;
  const { width, height } = size;
  if (maxPixels < minPixels) throw new Error("maxPixels must be at least minPixels");
  if (Math.max(height, width) / Math.min(height, width) > MAX_RATIO) {
    throw new Error(`the aspect ratio must be below ${MAX_RATIO}, not ${Math.max(height, width) / Math.min(height, width)}`);
  }
  let h = Math.max(factor, roundHalfEven(height / factor) * factor);
  let w = Math.max(factor, roundHalfEven(width / factor) * factor);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.floor(height / beta / factor) * factor;
    w = Math.floor(width / beta / factor) * factor;
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: w, height: h };
}

function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const rest = value - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * A grid laid over the whole image: a point `scale(image)` covers the image's full width or
 * height, each axis scaled on its own; the model may name points up to `limit` (0–999 stops one
 * step short of the edge, 0–1000 reaches it).
 */
function overlaid(name: GridName, scale: (image: Size) => Size, limit: (image: Size) => Size, integral: boolean): Grid {
  return {
    name,
    extent: limit,
    toPixels(point, image) {
      const span = scale(image);
      const max = limit(image);
      if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) throw new Error("x and y must be numbers");
      if (point.x < 0 || point.y < 0 || point.x > max.width || point.y > max.height) {
        throw new Error(`(${point.x}, ${point.y}) is outside the screenshot, whose points run 0–${max.width} across and 0–${max.height} down`);
      }
      return {
        x: Math.min(image.width - 1, Math.round((point.x * image.width) / span.width)),
        y: Math.min(image.height - 1, Math.round((point.y * image.height) / span.height)),
      };
    },
    fromPixels(point, image) {
      const span = scale(image);
      const max = limit(image);
      const x = Math.min(max.width, (point.x * span.width) / image.width);
      const y = Math.min(max.height, (point.y * span.height) / image.height);
      return integral ? { x: Math.min(max.width, Math.round(x)), y: Math.min(max.height, Math.round(y)) } : { x, y };
    },
  };
}

const fixed = (width: number, height: number) => () => ({ width, height });

const pixels: Grid = {
  name: "pixels",
  extent: (image) => image,
  toPixels(point, image) {
    if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) throw new Error("x and y must be numbers");
    const p = { x: Math.round(point.x), y: Math.round(point.y) };
    if (p.x < 0 || p.y < 0 || p.x >= image.width || p.y >= image.height) {
      throw new Error(`(${point.x}, ${point.y}) is outside the screenshot, which is ${image.width}×${image.height} pixels; x must be 0–${image.width - 1} and y 0–${image.height - 1}`);
    }
    return p;
  },
  fromPixels: (point) => ({ ...point }),
};

/** The convention `name` names; `smart_resize` with `resize` (Qwen2.5-VL's by default). */
export function gridOf(name: GridName, resize: SmartResizeOptions = QWEN25_SMART_RESIZE): Grid {
  switch (name) {
    case "pixels":
      return pixels;
    case "norm999":
      return overlaid("norm999", fixed(1000, 1000), fixed(999, 999), true);
    case "norm1000":
      return overlaid("norm1000", fixed(1000, 1000), fixed(1000, 1000), true);
    case "relative":
      return overlaid("relative", fixed(1, 1), fixed(1, 1), false);
    case "smart_resize": {
      const resized = (image: Size) => smartResize(image, resize);
      return overlaid("smart_resize", resized, resized, true);
    }
  }
}
