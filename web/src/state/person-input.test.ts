import { describe, expect, it } from "vitest";
import { framePoint, keyInput, nextBatch } from "./person-input.ts";

const key = (k: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe("the person's input on the live screen", () => {
  it("maps a point of the shown frame to frame pixels, inside the frame", () => {
    const rect = { left: 100, top: 50, width: 640, height: 400 };
    expect(framePoint(rect, 420, 250, { width: 1280, height: 800 })).toEqual({ x: 640, y: 400 });
    expect(framePoint(rect, 100, 50, { width: 1280, height: 800 })).toEqual({ x: 0, y: 0 });
    expect(framePoint(rect, 2000, -10, { width: 1280, height: 800 })).toEqual({ x: 1279, y: 0 });
  });

  it("types characters, presses named keys and chords, and lets Tab and lone modifiers go", () => {
    expect(keyInput(key("a"))).toEqual({ kind: "type", text: "a" });
    expect(keyInput(key("A", { shiftKey: true }))).toEqual({ kind: "type", text: "A" });
    expect(keyInput(key("你"))).toEqual({ kind: "type", text: "你" });
    expect(keyInput(key("Enter"))).toEqual({ kind: "key", keys: ["Enter"] });
    expect(keyInput(key("ArrowLeft", { shiftKey: true }))).toEqual({ kind: "key", keys: ["Shift", "ArrowLeft"] });
    expect(keyInput(key("A", { ctrlKey: true, shiftKey: true }))).toEqual({ kind: "key", keys: ["Control", "Shift", "a"] });
    expect(keyInput(key("Tab"))).toBeNull();
    expect(keyInput(key("Shift", { shiftKey: true }))).toBeNull();
    expect(keyInput(key("Dead"))).toBeNull();
  });

  it("sends characters typed one after another as one text, and wheel turns as one scroll, in order", () => {
    const queue = [
      { kind: "type" as const, text: "h" },
      { kind: "type" as const, text: "i" },
      { kind: "key" as const, keys: ["Enter"] },
      { kind: "type" as const, text: "x" },
    ];
    expect(nextBatch(queue)).toEqual({ input: { kind: "type", text: "hi" }, taken: 2 });
    expect(nextBatch(queue.slice(2))).toEqual({ input: { kind: "key", keys: ["Enter"] }, taken: 1 });
    expect(nextBatch([])).toBeNull();
    const wheel = [
      { kind: "scroll" as const, x: 10, y: 20, delta_y: 100 },
      { kind: "scroll" as const, x: 12, y: 20, delta_y: 60 },
      { kind: "type" as const, text: "x" },
    ];
    expect(nextBatch(wheel)).toEqual({ input: { kind: "scroll", x: 10, y: 20, delta_x: 0, delta_y: 160 }, taken: 2 });
  });
});
