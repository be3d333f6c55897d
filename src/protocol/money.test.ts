import { describe, expect, it } from "vitest";
import { formatUsd } from "./money.ts";

describe("formatUsd", () => {
  it("reads short, never rounds a small cost to nothing, and shows nothing for an unknown one", () => {
    expect(formatUsd(0.0123)).toBe("$0.012");
    expect(formatUsd(0.12)).toBe("$0.12");
    expect(formatUsd(0.003)).toBe("$0.003");
    expect(formatUsd(0.0004)).toBe("<$0.001");
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(null)).toBeNull();
  });
});
