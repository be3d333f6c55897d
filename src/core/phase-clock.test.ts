import { describe, expect, it } from "vitest";
import { PhaseClock } from "./phase-clock.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PhaseClock", () => {
  it("counts each millisecond once, under the innermost phase, and starts afresh after take", async () => {
    const clock = new PhaseClock();
    await clock.time("action", async () => {
      await sleep(30);
      await clock.time("settle", () => sleep(30));
    });
    const timings = clock.take();
    expect(timings.action).toBeGreaterThanOrEqual(25);
    expect(timings.settle).toBeGreaterThanOrEqual(25);
    expect(timings.action! + timings.settle!).toBeLessThanOrEqual(timings.total + 0.2);
    expect(Object.keys(clock.take())).toEqual(["total"]);
  });
});
