import { describe, expect, it } from "vitest";
import { loadConfig } from "./load-config.ts";
import { redact, redactor } from "./redact.ts";

describe("redact", () => {
  it("masks a configured key wherever it appears, and the credentials of any URL", () => {
    const text = 'HTTP 401 from https://ada:hunter22@api.example.com/v1: {"error":"invalid key sk-live-1234567890"}';
    expect(redact(text, ["sk-live-1234567890"])).toBe('HTTP 401 from https://[redacted]@api.example.com/v1: {"error":"invalid key [redacted]"}');
  });
  it("leaves a text without secrets as it is", () => {
    expect(redact("The page did not load.", ["sk-live-1234567890"])).toBe("The page did not load.");
  });
  it("puts a task secret back as its placeholder anywhere in an event, its address's encoded form too, and masks the keys", () => {
    const config = loadConfig({}, { model: { apiKey: "sk-live-1234567890" }, secrets: { pin: "open sesame 42" } });
    const event = { type: "screen.live", url: "http://shop.test/?q=open%20sesame%2042", window: "open sesame 42 — Chromium", error: { message: "key sk-live-1234567890" }, at: 3 };
    expect(redactor(config)(event)).toEqual({ type: "screen.live", url: "http://shop.test/?q=%pin%", window: "%pin% — Chromium", error: { message: "key [redacted]" }, at: 3 });
  });
});
