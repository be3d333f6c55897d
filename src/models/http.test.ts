import { describe, expect, it } from "vitest";
import { retryAfter, retryInfo } from "./http.ts";

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

describe("retryInfo", () => {
  it("reads the retryDelay of a google.rpc.RetryInfo detail in an error body", () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        message: "You exceeded your current quota.",
        status: "RESOURCE_EXHAUSTED",
        details: [
          { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [] },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "36s" },
        ],
      },
    });
    expect(retryInfo(body)).toBe(36_000);
    expect(retryInfo('{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}')).toBe(1500);
  });

  it("is null for any other body", () => {
    expect(retryInfo('{"error": {"message": "slow down", "retryDelay": "36s"}}')).toBeNull();
    expect(retryInfo("<html>busy</html>")).toBeNull();
  });
});
