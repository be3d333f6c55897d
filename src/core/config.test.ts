import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_APPROVAL_POLICY } from "./approval-policy.ts";
import { loadConfig } from "./load-config.ts";

describe("loadConfig", () => {
  it("has the embedded defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8000,
      model: { provider: "qwen", jsonMode: true, timeoutMs: 90_000, repairRetries: 2 },
      limits: { maxSteps: 80, maxDurationMs: 480_000 },
      browser: { headless: true, width: 1280, height: 800 },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("reads the environment, and flags win over it", () => {
    const config = loadConfig(
      { PORT: "9000", MODEL_NAME: "qwen-vl-max", MODEL_BASE_URL: "http://127.0.0.1:1/v1", MAX_STEPS: "5", HEADLESS: "false", ALLOWED_DOMAINS: "docs.example, https://*.Wiki.example:443/start, bücher.example." },
      { port: 9100 },
    );
    expect(config.network.allowedDomains).toEqual(["docs.example", "wiki.example", "xn--bcher-kva.example"]);
    expect(config.port).toBe(9100);
    expect(config.model).toMatchObject({ name: "qwen-vl-max", baseUrl: "http://127.0.0.1:1/v1" });
    expect(config.limits.maxSteps).toBe(5);
    expect(config.browser.headless).toBe(false);
  });

  it("names what is wrong", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/port/);
    expect(() => loadConfig({ MODEL_PROVIDER: "nope" })).toThrow(/model.provider/);
  });

  it("reads a model's coordinate grid and dialect, and names the ones it knows when one is wrong", () => {
    expect(loadConfig({ MODEL_GRID: "norm1000", MODEL_DIALECT: "qwen3-vl" }).model).toMatchObject({ grid: "norm1000", dialect: "qwen3-vl" });
    const plain = loadConfig({}).model;
    expect([plain.grid, plain.dialect]).toEqual([undefined, undefined]);
    expect(() => loadConfig({ MODEL_GRID: "0-1000" })).toThrow("MODEL_GRID must be one of pixels, norm999, norm1000, relative, smart_resize");
    expect(() => loadConfig({ MODEL_DIALECT: "holo" })).toThrow("MODEL_DIALECT must be one of json, qwen3-vl, glm-4.5v");
  });

  it("reads the approval policy inline or from a file, over the defaults, and refuses what it cannot read", () => {
    expect(loadConfig({}).approvals).toEqual(DEFAULT_APPROVAL_POLICY);
    expect(loadConfig({ APPROVAL_POLICY: '{"submit":"allow","delete":"deny"}' }).approvals).toMatchObject({ submit: "allow", delete: "deny", pay: "ask" });
    const dir = mkdtempSync(path.join(tmpdir(), "policy-"));
    writeFileSync(path.join(dir, "policy.json"), '{"download":"deny"}');
    expect(loadConfig({ APPROVAL_POLICY: path.join(dir, "policy.json") }).approvals.download).toBe("deny");
    expect(loadConfig({}, { approvals: { hotkey: "allow" } }).approvals.hotkey).toBe("allow");
    expect(() => loadConfig({ APPROVAL_POLICY: '{"submit":"maybe"}' })).toThrow(/approvals/);
    expect(() => loadConfig({ APPROVAL_POLICY: '{"everything":"allow"}' })).toThrow(/approvals/);
    expect(() => loadConfig({ APPROVAL_POLICY: path.join(dir, "missing.json") })).toThrow(/missing.json is not a readable JSON object/);
  });

  it("queues tasks for workers only on a Postgres server", () => {
    expect(loadConfig({}).taskQueue).toBe("process");
    expect(loadConfig({ TASK_QUEUE: "postgres", DATABASE_URL: "postgres://u@127.0.0.1:5432/d" }).taskQueue).toBe("postgres");
    expect(() => loadConfig({ TASK_QUEUE: "postgres" })).toThrow("TASK_QUEUE=postgres queues tasks on the Postgres server of DATABASE_URL; set DATABASE_URL too.");
    expect(() => loadConfig({ TASK_QUEUE: "redis" })).toThrow(/taskQueue/);
  });

  it("reads the browsers tasks lease, and refuses two settings that each say where tasks' browsers come from", () => {
    const pool = loadConfig({ BROWSER_CDP_URLS: "http://10.0.0.7:9222, wss://browsers.example/session?token=abc", BROWSER_LEASE_WAIT_MS: "5000" }).browser;
    expect(pool).toMatchObject({ cdpUrls: ["http://10.0.0.7:9222", "wss://browsers.example/session?token=abc"], leaseWaitMs: 5000 });
    expect(loadConfig({ BROWSER_CDP_COMMAND: "browser-service new-session" }).browser).toMatchObject({ cdpCommand: "browser-service new-session", cdpCommandTimeoutMs: 60_000 });
    expect(() => loadConfig({ BROWSER_CDP_URLS: "10.0.0.7:9222" })).toThrow("BROWSER_CDP_URLS lists http(s) or ws(s) DevTools addresses");
    expect(loadConfig({ BROWSER_FENCE_ADDRESS: "10.0.0.5:8899" }).browser.fenceAddress).toBe("10.0.0.5:8899");
    expect(() => loadConfig({ BROWSER_FENCE_ADDRESS: "http://10.0.0.5" })).toThrow("BROWSER_FENCE_ADDRESS is a host and port of this server that leased browsers reach: 10.0.0.5:8899");
    expect(() => loadConfig({ BROWSER_CDP_URLS: "http://10.0.0.7:9222", BROWSER_CDP_COMMAND: "x" })).toThrow("BROWSER_CDP_URLS and BROWSER_CDP_COMMAND each give the browsers tasks lease; set only one of them.");
    expect(() => loadConfig({ BROWSER_CDP_COMMAND: "x", CDP_URL: "http://127.0.0.1:9222" })).toThrow("BROWSER_CDP_COMMAND gives each task a browser of its own, CDP_URL and ATTACH_CHROME one browser for every task; set only one of them.");
    expect(() => loadConfig({ BROWSER_CDP_URLS: "http://10.0.0.7:9222", ATTACH_CHROME: "1" })).toThrow(/BROWSER_CDP_URLS gives each task a browser of its own/);
  });
});
