// Behind a reverse proxy on a domain name (issue 38): the server listens on loopback, the proxy
// passes the name people use as the Host, and ALLOWED_HOSTS names it. Requests that name it are
// answered — once signed in, since the proxy brings the whole network to a loopback port — and any
// other name is still refused, as a DNS-rebound page's would be.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/load-config.ts";
import { useWorld } from "../support/world.ts";

const { model } = useWorld({ app: false });

let server: ChildProcess;
let printed = "";
let port = 0;
let token = "";

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-proxy-"));
  server = spawn(process.execPath, ["bin/easyagentcu.js", "serve", "--port", "0", "--data-dir", dataDir], {
    env: { ...process.env, MODEL_BASE_URL: model.baseUrl, LOG_LEVEL: "silent", ALLOWED_HOSTS: "Agent.Example.com, agent.internal" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      if (/through your proxy, https:\/\/agent\.internal\//.test(printed)) resolve();
    });
    server.once("exit", (code) => reject(new Error(`server exited with ${code}: ${printed}`)));
  });
  const link = new URL(/Sign in by opening (\S+)/.exec(printed)![1]!);
  port = Number(link.port);
  token = link.searchParams.get("token")!;
});
afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
});

/** A request as the proxy forwards it: to the loopback port, with the public name as its Host. */
function viaProxy(host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: "/api/sessions", headers: { host, ...headers } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("a server behind a reverse proxy on a domain name", () => {
  it("answers the names ALLOWED_HOSTS gives, signed in, and prints the sign-in link for each", async () => {
    expect(printed).toContain(`https://agent.example.com/login?token=${token}`);
    expect((await viaProxy("agent.example.com")).status).toBe(401);
    const signedIn = await viaProxy("agent.example.com", { authorization: `Bearer ${token}`, origin: "https://agent.example.com" });
    expect(signedIn.status).toBe(200);
    expect(JSON.parse(signedIn.body)).toHaveProperty("sessions");
  });

  it("still refuses any other name, signed in or not", async () => {
    const other = await viaProxy("evil.example", { authorization: `Bearer ${token}` });
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body).error.message).toContain("ALLOWED_HOSTS");
  });

  it("refuses a setting that is not a host name, saying what it takes", () => {
    expect(() => loadConfig({ ALLOWED_HOSTS: "https://agent.example.com" })).toThrow("ALLOWED_HOSTS lists host names only");
  });
});
