import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../core/load-config.ts";
import { modelReadiness } from "./readiness.ts";

const config = (env: Record<string, string>) => loadConfig(env);

describe("whether the models can be asked", () => {
  it("says which key is missing for a cloud provider, before any request", async () => {
    const noFetch = (() => Promise.reject(new Error("no request expected"))) as unknown as typeof fetch;
    expect(await modelReadiness(config({}), noFetch)).toMatchObject({ ready: false, problem: "no_key", setting: "MODEL_API_KEY", endpoint: expect.stringContaining("dashscope") });
    expect(await modelReadiness(config({ MODEL_PROVIDER: "anthropic" }), noFetch)).toMatchObject({ problem: "no_key", setting: "ANTHROPIC_API_KEY" });
    expect(await modelReadiness(config({ MODEL_PROVIDER: "gemini" }), noFetch)).toMatchObject({
      problem: "no_key",
      setting: "GEMINI_API_KEY",
      endpoint: "https://generativelanguage.googleapis.com/v1beta",
    });
    // A Gemini chat assistant beside another planner names Gemini's own key.
    expect(await modelReadiness(config({ MODEL_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "k", CHAT_PROVIDER: "gemini", AGENT_MODE: "dom" }), noFetch)).toMatchObject({
      problem: "no_key",
      setting: "GEMINI_API_KEY (or CHAT_API_KEY)",
    });
    // A local UI-TARS planner chats through DashScope's qwen-plus: that key is the one missing.
    expect(await modelReadiness(config({ MODEL_PROVIDER: "uitars", MODEL_BASE_URL: "http://127.0.0.1:9/v1", AGENT_MODE: "dom" }), noFetch)).toMatchObject({
      problem: "no_key",
      setting: "DASHSCOPE_API_KEY (or CHAT_API_KEY)",
    });
    // A key carried in the address is not repeated.
    const inUrl = await modelReadiness(config({ MODEL_BASE_URL: "https://user:secret@models.example.com/v1?api-key=secret" }), noFetch);
    expect(JSON.stringify(inUrl)).not.toContain("secret");
  });

  it("needs no key on a local server, but says when it does not answer", async () => {
    const closed = await closedPort();
    const down = await modelReadiness(config({ MODEL_BASE_URL: `http://127.0.0.1:${closed}/v1` }));
    expect(down).toMatchObject({ ready: false, problem: "unreachable", setting: "MODEL_BASE_URL", detail: expect.stringContaining("ECONNREFUSED") });
    const server = createServer((_req, res) => res.writeHead(404).end()).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      expect(await modelReadiness(config({ MODEL_BASE_URL: url }))).toEqual({ ready: true });
      // The chat assistant's own endpoint is checked too, and named by its own setting.
      expect(await modelReadiness(config({ MODEL_BASE_URL: url, CHAT_BASE_URL: `http://127.0.0.1:${closed}/v1` }))).toMatchObject({ problem: "unreachable", setting: "CHAT_BASE_URL" });
    } finally {
      server.close();
    }
  });

  it("says when an endpoint refuses the key it is sent, as its model calls send it", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      const key = req.headers.authorization ?? req.headers["x-api-key"]?.toString();
      seen.push(`${req.url} ${key}`);
      res.writeHead(key === "Bearer right-key" || key === "right-key" ? 200 : 401).end();
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      expect(await modelReadiness(config({ MODEL_BASE_URL: url, MODEL_API_KEY: "right-key" }))).toEqual({ ready: true });
      expect(await modelReadiness(config({ MODEL_BASE_URL: url, MODEL_API_KEY: "wrong-key" }))).toMatchObject({ ready: false, problem: "key_refused", setting: "MODEL_API_KEY", detail: expect.stringContaining("refuses the key") });
      expect(await modelReadiness(config({ MODEL_BASE_URL: url }))).toMatchObject({ problem: "key_refused", detail: expect.stringContaining("asks for a key") });
      expect(await modelReadiness(config({ MODEL_PROVIDER: "anthropic", ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "right-key" }))).toEqual({ ready: true });
      expect(seen).toContain("/v1/v1/models right-key");
      expect(JSON.stringify(await modelReadiness(config({ MODEL_BASE_URL: url, MODEL_API_KEY: "wrong-key" })))).not.toContain("wrong-key");
    } finally {
      server.close();
    }
  });
});

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
