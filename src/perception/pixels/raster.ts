// Screen pixels as the pixel detector reads them: one image as packed RGB bytes, made from an
// encoded screenshot (JPEG, PNG) or from an X server's raw 32-bit BGRX pixels.
import sharp from "sharp";
import type { Box } from "./geometry.ts";

export interface Raster {
  width: number;
  height: number;
  /** R, G, B for each pixel, row by row. */
  rgb: Uint8Array;
}

export async function rasterFromImage(data: Buffer): Promise<Raster> {
  const { data: rgb, info } = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb };
}

/**
 * 32-bit pixels as X servers and nut-js give them: B, G, R and an unused byte; `stride` bytes a
 * row. `box`: only these pixels (inside the image), converted alone.
 */
export function rasterFromBgrx(pixels: Buffer, width: number, height: number, stride = width * 4, box: Box = { x: 0, y: 0, width, height }): Raster {
  const rgb = new Uint8Array(box.width * box.height * 3);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0, i = (box.y + y) * stride + box.x * 4, o = y * box.width * 3; x < box.width; x++, i += 4, o += 3) {
      rgb[o] = pixels[i + 2]!;
      rgb[o + 1] = pixels[i + 1]!;
      rgb[o + 2] = pixels[i]!;
    }
  }
  return { width: box.width, height: box.height, rgb };
}

/** The pixels of one box (clipped to the image) as a raster of their own. */
export function crop(image: Raster, box: Box): Raster {
  const x0 = Math.max(0, box.x);
  const y0 = Math.max(0, box.y);
  const width = Math.max(1, Math.min(image.width, box.x + box.width) - x0);
  const height = Math.max(1, Math.min(image.height, box.y + box.height) - y0);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * image.width + x0) * 3;
    rgb.set(image.rgb.subarray(from, from + width * 3), y * width * 3);
  }
  return { width, height, rgb };
}
