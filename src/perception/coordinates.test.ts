import { describe, expect, it } from "vitest";
import { convert, fitWithin, isInside, scalePoint, spacesFor } from "./coordinates.ts";

const logical = { width: 1280, height: 800 };

describe("conversions between model, screenshot and logical pixels", () => {
  it.each([
    [1, { x: 200, y: 130 }, { x: 200, y: 130 }],
    [1.25, { x: 250, y: 163 }, { x: 200, y: 130 }],
    [1.5, { x: 300, y: 195 }, { x: 200, y: 130 }],
    [2, { x: 400, y: 260 }, { x: 200, y: 130 }],
  ])("at devicePixelRatio %s a screenshot point %o is the logical point %o", (dpr, shot, css) => {
    const spaces = spacesFor(logical, dpr, logical);
    expect(spaces.screenshot).toEqual({ width: 1280 * dpr, height: 800 * dpr });
    expect(convert(shot, spaces, "screenshot", "logical")).toEqual(css);
  });

  it.each([1, 1.25, 1.5, 2])("at devicePixelRatio %s the model image fitted to 1280×800 maps straight to logical pixels", (dpr) => {
    const screenshot = { width: 1280 * dpr, height: 800 * dpr };
    const spaces = spacesFor(logical, dpr, fitWithin(screenshot, { width: 1280, height: 1280 }));
    expect(spaces.model).toEqual(logical);
    const inShot = convert({ x: 640, y: 400 }, spaces, "model", "screenshot");
    expect(inShot).toEqual({ x: 640 * dpr, y: 400 * dpr });
    expect(convert(inShot, spaces, "screenshot", "logical")).toEqual({ x: 640, y: 400 });
    expect(convert({ x: 640, y: 400 }, spaces, "model", "logical")).toEqual({ x: 640, y: 400 });
  });

  it("scales each axis on its own when the model wants a fixed size", () => {
    const spaces = spacesFor({ width: 1920, height: 1080 }, 1, { width: 1000, height: 1000 });
    expect(convert({ x: 500, y: 500 }, spaces, "model", "screenshot")).toEqual({ x: 960, y: 540 });
    expect(convert({ x: 960, y: 540 }, spaces, "screenshot", "model")).toEqual({ x: 500, y: 500 });
    expect(convert({ x: 999, y: 999 }, spaces, "model", "logical")).toEqual({ x: 1918, y: 1079 });
  });

  it("never lands outside the target space", () => {
    const spaces = spacesFor({ width: 100, height: 100 }, 1.5, { width: 33, height: 33 });
    expect(convert({ x: 32, y: 32 }, spaces, "model", "screenshot")).toEqual({ x: 145, y: 145 });
    expect(isInside(convert({ x: 32, y: 32 }, spaces, "model", "logical"), spaces.logical)).toBe(true);
  });

  it("rounds to whole pixels", () => {
    expect(scalePoint({ x: 1, y: 1 }, { width: 1600, height: 1000 }, logical)).toEqual({ x: 1, y: 1 });
  });
});

describe("fitWithin", () => {
  it("keeps the aspect ratio and never enlarges", () => {
    expect(fitWithin({ width: 2560, height: 1600 }, { width: 1280, height: 1280 })).toEqual({ width: 1280, height: 800 });
    expect(fitWithin({ width: 1600, height: 2560 }, { width: 1280, height: 1280 })).toEqual({ width: 800, height: 1280 });
    expect(fitWithin({ width: 800, height: 600 }, { width: 1280, height: 1280 })).toEqual({ width: 800, height: 600 });
  });
});

describe("isInside", () => {
  it("excludes the right and bottom edges", () => {
    expect(isInside({ x: 0, y: 0 }, { width: 10, height: 10 })).toBe(true);
    expect(isInside({ x: 10, y: 5 }, { width: 10, height: 10 })).toBe(false);
    expect(isInside({ x: 5, y: -1 }, { width: 10, height: 10 })).toBe(false);
  });
});
