import { describe, expect, it } from "vitest";
import { wantsPointerCheck } from "./hands.ts";

describe("wantsPointerCheck (VERIFY_CLICKS)", () => {
  it("follows the action's request by default", () => {
    expect(wantsPointerCheck("click", true, "requested")).toBe(true);
    expect(wantsPointerCheck("click", false, "requested")).toBe(false);
  });
  it("can be switched on or off", () => {
    expect(wantsPointerCheck("double_click", false, "always")).toBe(true);
    expect(wantsPointerCheck("right_click", true, "never")).toBe(false);
  });
  it("applies to clicks only", () => {
    expect(wantsPointerCheck("type", true, "always")).toBe(false);
    expect(wantsPointerCheck("drag", true, "always")).toBe(false);
  });
});
