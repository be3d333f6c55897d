// The pure half of the Windows and macOS desktop: what nut-js would be asked to do. nut-js itself
// is not loaded (no Windows or macOS screen here); the Key enum is stood in for by its names.
import { describe, expect, it } from "vitest";
import { normalizeKey } from "../../../protocol/keys.ts";
import { NativeSpaces, nutChord, nutKeyOf, typingRuns, wheelAmount, type KeyEnum } from "./nut-input.ts";

/** Every Key member as its own name, so a mapping reads as the key it names. */
const names = new Proxy({}, { get: (_, name) => name }) as unknown as KeyEnum;

describe("our key names on nut-js keys", () => {
  it.each([
    ["ctrl", "LeftControl"],
    ["cmd", "LeftSuper"],
    ["option", "LeftAlt"],
    ["shift", "LeftShift"],
    ["return", "Enter"],
    ["esc", "Escape"],
    ["space", "Space"],
    ["pgdn", "PageDown"],
    ["up", "Up"],
    ["arrowleft", "Left"],
    ["f5", "F5"],
    ["F24", "F24"],
    ["a", "A"],
    ["Z", "Z"],
    ["7", "Num7"],
    ["plus", "Add"],
    ["minus", "Minus"],
    ["/", "Slash"],
  ])("%s → Key.%s", (name, key) => expect(nutKeyOf(normalizeKey(name), names)).toBe(key));

  it("has no key for a character that takes Shift or is not on a US keyboard", () => {
    expect(nutKeyOf("!", names)).toBeNull();
    expect(nutKeyOf("é", names)).toBeNull();
    expect(nutKeyOf("F25", names)).toBeNull();
  });

  it("puts a chord's modifiers first, as nut-js taps the last key while it holds the rest", () => {
    expect(nutChord(["ctrl+shift+t"], names)).toEqual({ type: "keys", keys: ["LeftControl", "LeftShift", "T"] });
    expect(nutChord(["s", "cmd"], names)).toEqual({ type: "keys", keys: ["LeftSuper", "S"] });
  });

  it("types a lone character no key carries, and refuses it in a chord", () => {
    expect(nutChord(["!"], names)).toEqual({ type: "text", text: "!" });
    expect(nutChord(["ctrl+!"], names)).toEqual({ type: "missing", key: "!" });
    expect(nutChord(["hyper"], names)).toEqual({ type: "missing", key: "hyper" });
  });
});

describe("text typed through nut-js", () => {
  it("presses Enter for a line break and Tab for a tab, and types the rest as it is", () => {
    expect(typingRuns("Hello, World! 你好\r\nsecond\tcell\n")).toEqual([
      { type: "text", text: "Hello, World! 你好" },
      { type: "key", key: "Enter" },
      { type: "text", text: "second" },
      { type: "key", key: "Tab" },
      { type: "text", text: "cell" },
      { type: "key", key: "Enter" },
    ]);
    expect(typingRuns("")).toEqual([]);
  });
});

describe("a Retina screen: twice as many pixels as points", () => {
  const retina = new NativeSpaces({ width: 2880, height: 1800 }, { width: 1440, height: 900 });

  it("maps a point of the capture onto the screen's points and back", () => {
    expect(retina.toPoints(1000, 600)).toEqual({ x: 500, y: 300 });
    expect(retina.toCapture({ x: 500, y: 300 })).toEqual({ x: 1000, y: 600 });
    expect(retina.toPoints(2879, 1799)).toEqual({ x: 1439, y: 899 });
  });

  it("refuses a point off the capture, in the capture's pixels", () => {
    expect(() => retina.toPoints(2880, 10)).toThrow("(2880, 10) is outside the 2880×1800 screen.");
    expect(() => retina.toPoints(-1, 10)).toThrow("is outside");
  });

  it("scrolls macOS by points, Windows by wheel units of 120 a notch", () => {
    expect(wheelAmount(400, retina.pointsPerPixel.y, "darwin")).toBe(200);
    expect(wheelAmount(1, retina.pointsPerPixel.y, "darwin")).toBe(1);
    expect(wheelAmount(-300, 1, "win32")).toBe(360);
    expect(wheelAmount(10, 1, "win32")).toBe(120);
    expect(wheelAmount(0, 1, "win32")).toBe(0);
  });
});
