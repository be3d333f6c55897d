import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hashDistance, screenHash } from "./screen-hash.ts";

async function shot(draw: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#fff"/>${draw}</svg>`;
  const data = await sharp(Buffer.from(svg)).jpeg().toBuffer();
  return { data, mimeType: "image/jpeg" as const, width: 320, height: 200 };
}

describe("screenHash", () => {
  it("is the same for the same screen, close for a small change, far for another layout", async () => {
    const page = await screenHash(await shot('<rect x="20" y="20" width="120" height="60" fill="#222"/>'));
    const same = await screenHash(await shot('<rect x="20" y="20" width="120" height="60" fill="#222"/>'));
    const nudged = await screenHash(await shot('<rect x="24" y="20" width="120" height="60" fill="#222"/>'));
    const other = await screenHash(await shot('<rect x="180" y="120" width="120" height="60" fill="#222"/>'));
    expect(page).toMatch(/^[0-9a-f]{16}$/);
    expect(hashDistance(page, same)).toBe(0);
    expect(hashDistance(page, nudged)).toBeLessThanOrEqual(4);
    expect(hashDistance(page, other)).toBeGreaterThan(10);
  });
});
