// Live frames' versions, which their URLs carry and browsers cache by.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Screenshot } from "../computers/computer.ts";
import { LiveFrames } from "./live-frames.ts";

const SHOT: Screenshot = { data: Buffer.from("jpeg"), mimeType: "image/jpeg", width: 1, height: 1 };

afterEach(() => vi.useRealTimers());

describe("live frames", () => {
  it("gives each frame of a task a newer version, however fast they come", () => {
    const frames = new LiveFrames();
    const versions = Array.from({ length: 5 }, () => frames.show("task_1", SHOT));
    expect(new Set(versions).size).toBe(5);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(frames.get("live_task_1")?.version).toBe(versions.at(-1));
  });

  it("gives a task's first frame after a restart a version newer than any before it", () => {
    vi.useFakeTimers({ now: new Date("2026-11-27T08:00:00Z") });
    const before = new LiveFrames();
    let last = 0;
    for (let i = 0; i < 30; i++) last = before.show("task_1", SHOT);
    vi.setSystemTime(new Date("2026-11-27T08:00:02Z"));
    const restarted = new LiveFrames();
    expect(restarted.show("task_1", SHOT)).toBeGreaterThan(last);
  });
});
