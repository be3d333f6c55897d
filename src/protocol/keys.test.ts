import { describe, expect, it } from "vitest";
import { normalizeChord, normalizeKey } from "./keys.ts";

describe("key names", () => {
  it.each([
    ["CTRL", "Control"],
    ["cmd", "Meta"],
    ["ESC", "Escape"],
    ["RETURN", "Enter"],
    ["PAGEDOWN", "PageDown"],
    ["page_down", "PageDown"],
    ["LEFT", "ArrowLeft"],
    ["space", " "],
    ["f5", "F5"],
    ["a", "a"],
    ["A", "A"],
    ["Tab", "Tab"],
  ])("%s → %s", (name, key) => expect(normalizeKey(name)).toBe(key));

  it("splits chords written as one string", () => {
    expect(normalizeChord(["ctrl+shift+t"])).toEqual(["Control", "Shift", "t"]);
    expect(normalizeChord(["Control", "a"])).toEqual(["Control", "a"]);
    expect(normalizeChord(["+"])).toEqual(["+"]);
  });
});
