// The edge map the layout analysis starts from: a pixel is an edge where its colour differs from
// its right or lower neighbour by more than a threshold in any channel. Screen content is flat
// colour with sharp boundaries, so this marks outlines of controls, glyphs and icons and nothing
// in between.
import type { Raster } from "./raster.ts";

/** 1 where an edge is, else 0; one byte per pixel. */
export function edgeMap(image: Raster, threshold: number): Uint8Array {
  const { width, height, rgb } = image;
  const mask = new Uint8Array(width * height);
  const down = width * 3;
  // Written out channel by channel, each test leaving as soon as one differs: this loop runs for
  // every pixel of the screen, and helper calls here cost twice the time.
  for (let y = 0; y < height; y++) {
    const lastRow = y + 1 === height;
    const end = (y + 1) * width;
    for (let p = y * width, i = p * 3; p < end; p++, i += 3) {
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      let d: number;
      if (p + 1 < end) {
        d = r - rgb[i + 3]!;
        if (d > threshold || d < -threshold) { mask[p] = 1; continue; }
        d = g - rgb[i + 4]!;
        if (d > threshold || d < -threshold) { mask[p] = 1; continue; }
        d = b - rgb[i + 5]!;
        if (d > threshold || d < -threshold) { mask[p] = 1; continue; }
      }
      if (lastRow) continue;
      d = r - rgb[i + down]!;
      if (d > threshold || d < -threshold) { mask[p] = 1; continue; }
      d = g - rgb[i + down + 1]!;
      if (d > threshold || d < -threshold) { mask[p] = 1; continue; }
      d = b - rgb[i + down + 2]!;
      if (d > threshold || d < -threshold) mask[p] = 1;
    }
  }
  return mask;
}
