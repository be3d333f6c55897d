import { describe, expect, it } from "vitest";
import { allowedEndpoint, redactUrl } from "./cdp-endpoints.ts";
import { loadConfig } from "./config.ts";

describe("CDP endpoints", () => {
  it("drop what may hold a secret", () => {
    expect(redactUrl("wss://user:pw@browser.example.com/devtools/browser/abc?token=s3cret#x")).toBe("wss://browser.example.com/devtools/browser/abc");
    expect(redactUrl("http://127.0.0.1:9222")).toBe("http://127.0.0.1:9222");
  });

  it("are only the configured ones, named in full or redacted", () => {
    const config = loadConfig({ CDP_URL: "http://127.0.0.1:9222", CDP_ALLOWED_URLS: "wss://browser.example.com/devtools/browser/abc?token=s3cret" });
    expect(allowedEndpoint(config, "http://127.0.0.1:9222")).toBe("http://127.0.0.1:9222");
    expect(allowedEndpoint(config, "wss://browser.example.com/devtools/browser/abc")).toBe("wss://browser.example.com/devtools/browser/abc?token=s3cret");
    expect(allowedEndpoint(config, "http://10.0.0.5:9222")).toBeNull();
  });
});
