import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { diffScreens, ScreenReader } from "./screen-diff.ts";
import type { Screenshot } from "./screenshot.ts";

const W = 200;
const H = 100;

/** A white PNG with gray rectangles drawn on it. */
async function image(rects: { x: number; y: number; w: number; h: number; gray?: number }[] = []): Promise<Screenshot> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#fff"/>${rects
    .map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" fill="rgb(${r.gray ?? 0},${r.gray ?? 0},${r.gray ?? 0})"/>`)
    .join("")}</svg>`;
  const data = await sharp(Buffer.from(svg)).png().toBuffer();
  return { data, mimeType: "image/png", width: W, height: H };
}

const options = { pixelThreshold: 15, changeRatio: 0.02 };

describe("diffScreens", () => {
  it("sees no change between identical screens", async () => {
    expect(await diffScreens(await image(), await image(), options)).toEqual({ changed: false, ratio: 0, changedPixels: 0, box: null });
  });

  it("counts a change above the ratio and reports where it is", async () => {
    const diff = await diffScreens(await image(), await image([{ x: 10, y: 10, w: 40, h: 20 }]), options);
    expect(diff).toMatchObject({ changed: true, changedPixels: 800, box: { x: 10, y: 10, width: 40, height: 20 } });
    expect(diff.ratio).toBeCloseTo(0.04);
  });

  it("ignores gray shifts within the per-pixel threshold", async () => {
    const diff = await diffScreens(await image(), await image([{ x: 0, y: 0, w: W, h: H, gray: 245 }]), options);
    expect(diff.changed).toBe(false);
  });

  it("calls a change below the ratio no change", async () => {
    const diff = await diffScreens(await image(), await image([{ x: 10, y: 10, w: 10, h: 10 }]), options);
    expect(diff).toMatchObject({ changed: false, changedPixels: 100 });
  });

  it("ignores the pointer's surroundings and a caret's blink", async () => {
    const pointer = await diffScreens(await image(), await image([{ x: 90, y: 40, w: 30, h: 30 }]), { ...options, ignorePoints: [{ x: 105, y: 55 }] });
    expect(pointer.changed).toBe(false);
    const caret = await diffScreens(await image(), await image([{ x: 50, y: 20, w: 2, h: 22 }]), { ...options, changeRatio: 0 });
    expect(caret).toMatchObject({ changed: false, changedPixels: 0 });
  });

  it("treats screens of different sizes as changed", async () => {
    const small = { ...(await image()), width: 100 };
    expect((await diffScreens(small, await image(), options)).changed).toBe(true);
  });

  it("does not decode two captures with the same bytes: nothing changed", async () => {
    const read = (): Promise<Uint8Array> => Promise.reject(new Error("decoded"));
    expect(await diffScreens(await image(), await image(), options, read)).toEqual({ changed: false, ratio: 0, changedPixels: 0, box: null });
  });
});

describe("ScreenReader", () => {
  /** A reader that counts the captures it decodes. */
  function counting() {
    const decoded: Screenshot[] = [];
    const reader = new ScreenReader(async (shot) => {
      decoded.push(shot);
      const { data } = await sharp(shot.data).greyscale().raw().toBuffer({ resolveWithObject: true });
      return new Uint8Array(data);
    });
    return { reader, decoded };
  }

  it("decodes the screen after one action once, though it is the screen before the next", async () => {
    const { reader, decoded } = counting();
    const [first, second, third] = [await image(), await image([{ x: 10, y: 10, w: 40, h: 20 }]), await image([{ x: 100, y: 50, w: 40, h: 20 }])];
    expect((await reader.diff(first, second, options)).changedPixels).toBe(800);
    expect((await reader.diff(second, third, options)).changedPixels).toBe(1600);
    expect(decoded).toEqual([first, second, third]);
  });

  it("keeps the screen before while a click is tried again a few pixels off", async () => {
    const { reader, decoded } = counting();
    const before = await image();
    const tries = [await image([{ x: 10, y: 10, w: 5, h: 5 }]), await image([{ x: 60, y: 10, w: 5, h: 5 }]), await image([{ x: 120, y: 10, w: 5, h: 5 }])];
    for (const after of tries) expect((await reader.diff(before, after, options)).changedPixels).toBe(25);
    expect(decoded).toEqual([before, ...tries]);
  });
});
