// Starts the real product in-process for a test: the store in a fresh temporary data directory,
// Chromium, the runtime and the HTTP server on a free port, pointed at a scripted model.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApprovalPolicy } from "../../src/core/approval-policy.ts";
import { type ConfigInput, type DeepPartial } from "../../src/core/config.ts";
import { loadConfig } from "../../src/core/load-config.ts";
import { ACTION_CLASSES, INSTALL_TOKEN_HEADER } from "../../src/protocol/index.ts";
import { startSystem, WEB_DIR, type System } from "../../src/cli/system.ts";
import { listen } from "../../src/server/listen.ts";
import { fixtureOrigins } from "./fixture-server.ts";

export interface TestApp {
  url: string;
  dataDir: string;
  system: System;
  /** A request as the UI makes it (JSON body; its headers may be added to or overridden). */
  api<T = unknown>(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: T }>;
  /** Stops the server and the system; the data directory stays for a restart. */
  close(): Promise<void>;
}

/**
 * Tests that are not about approvals allow every class, so that the policy stays out of their way;
 * page content is still untrusted, so what leaves for an origin the task did not name still asks.
 */
export const ALLOW_EVERYTHING = Object.fromEntries(ACTION_CLASSES.map((c) => [c, "allow"])) as ApprovalPolicy;

/** `port`: listen there (a restart on the same address); a free one when absent. */
export async function startApp(options: { modelBaseUrl: string; dataDir?: string; port?: number; config?: DeepPartial<ConfigInput> }): Promise<TestApp> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "easyagentcu-test-")));
  const config = loadConfig(
    {},
    {
      dataDir,
      port: 0,
      logLevel: "silent",
      approvals: ALLOW_EVERYTHING,
      ...options.config,
      // The fence lets the agent's browser open the fixture pages, as a person names their own app.
      network: { ...options.config?.network, allowedOrigins: [...fixtureOrigins(), ...((options.config?.network?.allowedOrigins as string[] | undefined) ?? [])] },
      // Tests fire requests faster than a person; the rate limit is tested on its own.
      limits: { ratePerSecond: 0, ...options.config?.limits },
      // Backoffs as short as possible keep retry tests fast; the retries themselves are real.
      model: { baseUrl: options.modelBaseUrl, name: "scripted-vl", apiKey: "test-key", backoffMs: 20, ...options.config?.model },
    },
  );
  const system = await startSystem(config, { recover: true });
  const server = await listen({ ...system, webDir: WEB_DIR, authToken: config.authToken, allowedHosts: config.allowedHosts, ratePerSecond: config.limits.ratePerSecond, defaultComputer: config.computer }, config.host, options.port ?? 0);
  system.serving(server.port);
  return {
    url: server.url,
    dataDir,
    system,
    async api(method, route, body, headers = {}) {
      const response = await fetch(`${server.url}${route}`, {
        method,
        headers: { [INSTALL_TOKEN_HEADER]: system.installToken, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: (text ? JSON.parse(text) : null) as never };
    },
    async close() {
      await server.close();
      await system.close();
    },
  };
}
