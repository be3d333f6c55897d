import { describe, expect, it } from "vitest";
import { isInside, scalePoint } from "./coordinates.ts";

describe("scalePoint", () => {
  it("maps screenshot pixels to CSS pixels at devicePixelRatio 2", () => {
    expect(scalePoint({ x: 800, y: 400 }, { width: 2560, height: 1600 }, { width: 1280, height: 800 })).toEqual({ x: 400, y: 200 });
  });
  it("scales each axis on its own when the aspect changes", () => {
    expect(scalePoint({ x: 100, y: 100 }, { width: 1000, height: 500 }, { width: 500, height: 500 })).toEqual({ x: 50, y: 100 });
  });
  it("rounds to whole pixels", () => {
    expect(scalePoint({ x: 1, y: 1 }, { width: 1600, height: 1000 }, { width: 1280, height: 800 })).toEqual({ x: 1, y: 1 });
  });
});

describe("isInside", () => {
  it("excludes the right and bottom edges", () => {
    expect(isInside({ x: 0, y: 0 }, { width: 10, height: 10 })).toBe(true);
    expect(isInside({ x: 10, y: 5 }, { width: 10, height: 10 })).toBe(false);
    expect(isInside({ x: 5, y: -1 }, { width: 10, height: 10 })).toBe(false);
  });
});
