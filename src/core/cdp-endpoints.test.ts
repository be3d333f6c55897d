import { describe, expect, it } from "vitest";
import { allowedEndpoint, defaultChromeProfile, redactUrl } from "./cdp-endpoints.ts";
import { loadConfig } from "./load-config.ts";

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

  it("with ATTACH_CHROME, are the running Chrome of CHROME_PROFILE_DIR, else of Chrome's own profile folder", () => {
    const config = loadConfig({ ATTACH_CHROME: "1", CHROME_PROFILE_DIR: "/home/ada/chrome-work" });
    expect(allowedEndpoint(config, "file:///home/ada/chrome-work/DevToolsActivePort")).toBe("file:///home/ada/chrome-work/DevToolsActivePort");
    expect(allowedEndpoint(loadConfig({ CHROME_PROFILE_DIR: "/home/ada/chrome-work" }), "file:///home/ada/chrome-work/DevToolsActivePort")).toBeNull();
    expect(defaultChromeProfile("linux", { HOME: "/home/ada" })).toBe("/home/ada/.config/google-chrome");
    expect(defaultChromeProfile("darwin", { HOME: "/Users/ada" })).toBe("/Users/ada/Library/Application Support/Google/Chrome");
    expect(defaultChromeProfile("win32", { LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local" })).toBe("C:\\Users\\ada\\AppData\\Local\\Google\\Chrome\\User Data");
  });
});
