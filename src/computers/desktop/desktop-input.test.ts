import { describe, expect, it } from "vitest";
import { WHEEL_NOTCH_PX } from "../../protocol/index.ts";
import { wheelNotches } from "./desktop-input.ts";

describe("a scroll on the desktop", () => {
  it("turns the wheel as many notches as the model asked for", () => {
    // Set-of-Mark, OpenCUA and Claude scroll in notches, sent as pixels.
    expect(wheelNotches(3 * WHEEL_NOTCH_PX)).toBe(3);
    expect(wheelNotches(-5 * WHEEL_NOTCH_PX)).toBe(5);
  });

  it("turns it once for any smaller scroll, and not at all for none", () => {
    expect(wheelNotches(30)).toBe(1);
    expect(wheelNotches(0)).toBe(0);
  });
});
