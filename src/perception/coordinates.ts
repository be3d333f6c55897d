// The coordinate spaces a point lives in, and the one place that converts between them
// (seed 002 §6). Every computer and planner converts through here.
//
//   model       the image as sent to the model, possibly scaled down to the model's preferred size
//   screenshot  the capture as taken, in device pixels
//   logical     the computer's input space: CSS pixels in a browser, logical pixels on a
//               desktop with DPI scaling (screenshot = logical × devicePixelRatio)
//
// All three cover the same area of the screen, so a conversion scales each axis on its own;
// scaling that does not keep the aspect ratio (a model that wants a fixed size) works the same way.
import type { Size } from "./image-size.ts";

export type { Size };

export interface Point {
  x: number;
  y: number;
}

export type Space = "model" | "screenshot" | "logical";
export type Spaces = Record<Space, Size>;

/** Maps a point from one pixel space onto another covering the same area; axes scale separately. */
export function scalePoint(point: Point, from: Size, to: Size): Point {
  return {
    x: Math.round((point.x * to.width) / from.width),
    y: Math.round((point.y * to.height) / from.height),
  };
}

/** Converts a point between two of the spaces of one screen. */
export function convert(point: Point, spaces: Spaces, from: Space, to: Space): Point {
  if (from === to) return { ...point };
  return clampInto(scalePoint(point, spaces[from], spaces[to]), spaces[to]);
}

/** The spaces of a screen whose logical size and devicePixelRatio are known. */
export function spacesFor(logical: Size, devicePixelRatio: number, model: Size): Spaces {
  return {
    logical,
    screenshot: { width: Math.round(logical.width * devicePixelRatio), height: Math.round(logical.height * devicePixelRatio) },
    model,
  };
}

/** The largest size within `max` that keeps `size`'s aspect ratio; never larger than `size`. */
export function fitWithin(size: Size, max: Size): Size {
  const scale = Math.min(1, max.width / size.width, max.height / size.height);
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/** Whether a point lies inside an image of this size (origin top-left, exclusive right/bottom). */
export function isInside(point: Point, size: Size): boolean {
  return point.x >= 0 && point.y >= 0 && point.x < size.width && point.y < size.height;
}

// Rounding the last pixel of a row can land one past the edge.
function clampInto(point: Point, size: Size): Point {
  return { x: Math.min(Math.max(point.x, 0), size.width - 1), y: Math.min(Math.max(point.y, 0), size.height - 1) };
}
