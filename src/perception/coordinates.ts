// Conversions between the coordinate spaces a point lives in: the image as sent to the model,
// the screenshot as captured, and the computer's logical (CSS) pixels. Every computer and planner
// converts through here, so a scale is applied in exactly one place.
import type { Size } from "./image-size.ts";

export interface Point {
  x: number;
  y: number;
}

/** Maps a point from one pixel space onto another covering the same area; axes scale separately. */
export function scalePoint(point: Point, from: Size, to: Size): Point {
  return {
    x: Math.round((point.x * to.width) / from.width),
    y: Math.round((point.y * to.height) / from.height),
  };
}

/** Whether a point lies inside an image of this size (origin top-left, exclusive right/bottom). */
export function isInside(point: Point, size: Size): boolean {
  return point.x >= 0 && point.y >= 0 && point.x < size.width && point.y < size.height;
}
