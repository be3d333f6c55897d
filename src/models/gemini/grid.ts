// Gemini's computer-use coordinates: a 1000×1000 grid laid over the image it was sent, whatever
// that image's size (x and y in 0..999). One pure conversion each way, so the convention can move
// into a shared table of grids without touching the adapter.
import type { Point, Size } from "../../perception/coordinates.ts";

/** The grid's side: 0..999 on each axis. */
export const GRID = 1000;

/** A grid point in the pixels of an image of `size`; the last pixel is the farthest one can land. */
export function fromGrid(point: Point, size: Size): Point {
  return { x: gridToPixels(point.x, size.width), y: gridToPixels(point.y, size.height) };
}

/** A pixel of an image of `size` on the grid, as the model would name it. */
export function toGrid(point: Point, size: Size): Point {
  return { x: Math.min(GRID - 1, Math.round((point.x / size.width) * GRID)), y: Math.min(GRID - 1, Math.round((point.y / size.height) * GRID)) };
}

/** A length along one axis (a scroll's magnitude) in that axis's pixels. */
export function gridToPixels(value: number, extent: number): number {
  return Math.min(extent - 1, Math.max(0, Math.round((value / GRID) * extent)));
}
