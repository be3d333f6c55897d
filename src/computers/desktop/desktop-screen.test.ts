// Live frames of a desktop: a slow capture lowers the rate instead of piling captures up.
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { Screenshot } from "../computer.ts";
import { LiveFrames } from "./desktop-screen.ts";

const FRAME: Screenshot = { data: Buffer.from("jpeg"), mimeType: "image/jpeg", width: 1, height: 1 };

/** A capture that takes `ms`, counting how many began, how many run at once and how many ended. */
function slowCapture(ms: number) {
  const seen = { began: 0, running: 0, most: 0, taken: 0 };
  const capture = async (): Promise<Screenshot> => {
    seen.began++;
    seen.running++;
    seen.most = Math.max(seen.most, seen.running);
    await delay(ms);
    seen.running--;
    seen.taken++;
    return FRAME;
  };
  return { seen, capture };
}

describe("live frames of a desktop", () => {
  it("takes one capture at a time when a capture is slower than a frame", async () => {
    const { seen, capture } = slowCapture(60);
    const frames = new LiveFrames(100, capture);
    let delivered = 0;
    const stop = frames.add(() => delivered++);
    await delay(400);
    stop();
    expect(seen.most).toBe(1);
    expect(delivered).toBeGreaterThanOrEqual(2);
    expect(delivered).toBeLessThanOrEqual(7);
  });

  it("captures nothing once nobody listens, and starts again for a new listener", async () => {
    const { seen, capture } = slowCapture(5);
    const frames = new LiveFrames(50, capture);
    frames.add(() => undefined)();
    await delay(100);
    expect(seen.taken).toBe(0);
    let delivered = 0;
    const stop = frames.add(() => delivered++);
    await delay(150);
    stop();
    // A capture under way when the last listener left may end; no other begins.
    const began = seen.began;
    await delay(100);
    expect(delivered).toBeGreaterThan(0);
    expect(seen.began).toBe(began);
    frames.stop();
  });
});
