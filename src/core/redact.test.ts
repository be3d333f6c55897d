import { describe, expect, it } from "vitest";
import { redact } from "./redact.ts";

describe("redact", () => {
  it("masks a configured key wherever it appears, and the credentials of any URL", () => {
    const text = 'HTTP 401 from https://ada:hunter22@api.example.com/v1: {"error":"invalid key sk-live-1234567890"}';
    expect(redact(text, ["sk-live-1234567890"])).toBe('HTTP 401 from https://[redacted]@api.example.com/v1: {"error":"invalid key [redacted]"}');
  });
  it("leaves a text without secrets as it is", () => {
    expect(redact("The page did not load.", ["sk-live-1234567890"])).toBe("The page did not load.");
  });
});
