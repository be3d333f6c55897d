// A short fingerprint of a screen (an average hash: 8×8 grayscale, one bit per cell brighter than
// the mean), recorded before each tool-agent step so a replay can tell how alike two screens are.
import sharp from "sharp";
import type { Screenshot } from "./screenshot.ts";

export async function screenHash(shot: Screenshot): Promise<string> {
  const pixels = await sharp(shot.data).resize(8, 8, { fit: "fill" }).grayscale().raw().toBuffer();
  const mean = pixels.reduce((sum, v) => sum + v, 0) / pixels.length;
  let bits = 0n;
  for (const v of pixels) bits = (bits << 1n) | (v > mean ? 1n : 0n);
  return bits.toString(16).padStart(16, "0");
}

/** How many of the 64 bits differ: 0 for the same screen, a few for small changes. */
export function hashDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  for (; x > 0n; x >>= 1n) count += Number(x & 1n);
  return count;
}
