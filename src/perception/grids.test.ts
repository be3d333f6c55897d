import { describe, expect, it } from "vitest";
import { GRIDS } from "../core/config.ts";
import { gridOf, smartResize } from "./grids.ts";

const wide = { width: 1280, height: 800 };
const tall = { width: 390, height: 844 };
const big = { width: 2560, height: 1600 };

describe("smartResize, as Qwen's qwen-vl-utils publishes it", () => {
  it.each([
    // Both sides rounded to multiples of 28, halves to even as Python rounds.
    [wide, { width: 1288, height: 812 }],
    [{ width: 1920, height: 1080 }, { width: 1932, height: 1092 }],
    // 42 / 28 = 1.5 rounds to 2 (even), 70 / 28 = 2.5 rounds to 2 (even): 56×56 is 3136, just the minimum.
    [{ width: 42, height: 70 }, { width: 56, height: 56 }],
    // Over max_pixels: scaled down by the square root of the excess, then floored.
    [{ width: 8000, height: 4000 }, { width: 5068, height: 2520 }],
    [tall, { width: 392, height: 840 }],
    [big, { width: 2548, height: 1596 }],
    // Under min_pixels: scaled up, then ceiled.
    [{ width: 20, height: 10 }, { width: 84, height: 56 }],
  ])("resizes %o to %o", (size, resized) => {
    expect(smartResize(size)).toEqual(resized);
  });

  it("refuses an aspect ratio past 200", () => {
    expect(() => smartResize({ width: 20_100, height: 100 })).toThrow("aspect ratio");
  });
});

describe("every grid maps a point to pixels and back", () => {
  it.each(GRIDS.flatMap((name) => [wide, tall, big].map((image) => [name, image] as const)))("%s on %o", (name, image) => {
    const grid = gridOf(name);
    const extent = grid.extent(image);
    // One step of the grid covers this many pixels; a round trip may land that far off, never more.
    const step = { x: Math.max(1, image.width / extent.width), y: Math.max(1, image.height / extent.height) };
    for (const pixel of [{ x: 0, y: 0 }, { x: 200, y: 130 }, { x: image.width - 1, y: image.height - 1 }, { x: Math.floor(image.width / 2), y: Math.floor(image.height / 3) }]) {
      const there = grid.fromPixels(pixel, image);
      const back = grid.toPixels(there, image);
      expect(Math.abs(back.x - pixel.x)).toBeLessThanOrEqual(Math.ceil(step.x / 2));
      expect(Math.abs(back.y - pixel.y)).toBeLessThanOrEqual(Math.ceil(step.y / 2));
      expect(back.x).toBeGreaterThanOrEqual(0);
      expect(back.x).toBeLessThan(image.width);
      expect(back.y).toBeLessThan(image.height);
    }
  });
});

describe("what each grid means", () => {
  it("pixels are the image's own, and outside it is refused with the bounds", () => {
    expect(gridOf("pixels").toPixels({ x: 200.4, y: 130.6 }, wide)).toEqual({ x: 200, y: 131 });
    expect(() => gridOf("pixels").toPixels({ x: 1280, y: 5 }, wide)).toThrow("x must be 0–1279");
  });

  it("0–1000 spans the image on each axis, so a non-square image is scaled unevenly", () => {
    const grid = gridOf("norm1000");
    expect(grid.toPixels({ x: 500, y: 500 }, wide)).toEqual({ x: 640, y: 400 });
    expect(grid.toPixels({ x: 250, y: 750 }, tall)).toEqual({ x: 98, y: 633 });
    expect(grid.toPixels({ x: 1000, y: 1000 }, wide)).toEqual({ x: 1279, y: 799 });
    expect(grid.fromPixels({ x: 640, y: 400 }, wide)).toEqual({ x: 500, y: 500 });
    expect(() => grid.toPixels({ x: 1001, y: 5 }, wide)).toThrow("0–1000");
  });

  it("0–999 steps a thousandth of the image and stops at 999", () => {
    const grid = gridOf("norm999");
    expect(grid.toPixels({ x: 500, y: 500 }, wide)).toEqual({ x: 640, y: 400 });
    expect(grid.fromPixels({ x: 1279, y: 799 }, wide)).toEqual({ x: 999, y: 999 });
    expect(() => grid.toPixels({ x: 1000, y: 5 }, wide)).toThrow("0–999");
  });

  it("relative is a fraction of each side", () => {
    const grid = gridOf("relative");
    expect(grid.toPixels({ x: 0.15625, y: 0.1625 }, wide)).toEqual({ x: 200, y: 130 });
    expect(grid.fromPixels({ x: 640, y: 200 }, wide)).toEqual({ x: 0.5, y: 0.25 });
    expect(() => grid.toPixels({ x: 1.5, y: 0 }, wide)).toThrow("outside");
  });

  it("smart_resize is pixels of the image as the model's processor resized it", () => {
    const grid = gridOf("smart_resize");
    expect(grid.extent(wide)).toEqual({ width: 1288, height: 812 });
    expect(grid.toPixels({ x: 644, y: 406 }, wide)).toEqual({ x: 640, y: 400 });
    expect(grid.fromPixels({ x: 1279, y: 799 }, wide)).toEqual({ x: 1287, y: 811 });
  });

  it("refuses a point that is not a number", () => {
    for (const name of GRIDS) expect(() => gridOf(name).toPixels({ x: Number.NaN, y: 1 }, wide)).toThrow("numbers");
  });
});
