import { describe, expect, it } from "vitest";
import { retryAfter } from "./http.ts";

describe("retryAfter", () => {
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfter(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfter(new Headers({ "retry-after-ms": "350", "retry-after": "9" }))).toBe(350);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
  });
  it("is null when absent or unreadable", () => {
    expect(retryAfter(new Headers())).toBeNull();
    expect(retryAfter(new Headers({ "retry-after": "soon" }))).toBeNull();
  });
});
