// The extension and a server that asks for sign-in (one off loopback, issue 31): the install token
// alone no longer opens the extension's connection; with the sign-in token the server printed, given
// in the extension's popup, it connects and its screenshots reach the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Worker } from "playwright-core";
import { startApp, type TestApp } from "../support/app.ts";
import { launchWithExtension, workerNamed } from "../support/extension-browser.ts";
import { useWorld } from "../support/world.ts";

declare const chrome: { storage: { local: { set(items: object): Promise<void>; get(key: string): Promise<Record<string, unknown>> } } };

const SIGN_IN = "a-sign-in-token-of-this-server";
const { model, pages } = useWorld({ app: false });
let app: TestApp;
let context: BrowserContext;
let worker: Worker;

beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { authToken: SIGN_IN } });
  context = await launchWithExtension();
  worker = await workerNamed(context, "EasyAgentCU");
}, 180_000);
afterAll(async () => {
  await context?.close();
  await app?.close();
});

describe("the extension, on a server that asks for sign-in", () => {
  it("is refused with the install token alone, and connects and uploads once given the sign-in token", async () => {
    await worker.evaluate(([serverUrl, token]) => chrome.storage.local.set({ serverUrl, token }), [app.url, app.system.installToken] as const);
    const clientId = await worker.evaluate(async () => {
      for (;;) {
        const { clientId } = await chrome.storage.local.get("clientId");
        if (typeof clientId === "string") return clientId;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    expect(await app.system.extensions.registry.waitFor(clientId, 3_000)).toBeNull();

    await worker.evaluate((signIn) => chrome.storage.local.set({ signIn }), SIGN_IN);
    expect(await app.system.extensions.registry.waitFor(clientId, 15_000)).not.toBeNull();
    const { extensions } = app.system;
    const connection = extensions.registry.bind("task_signed_in", clientId);
    try {
      const started = await extensions.scheduler.run(connection, "task_signed_in", "task_start", { url: pages.url("form.html") });
      const tabId = (started.result as { tabId: number }).tabId;
      await extensions.scheduler.run(connection, "task_signed_in", "browser_wait_for_loaded", { tabId });
      await extensions.scheduler.run(connection, "task_signed_in", "browser_debugger_attach", { tabId });
      const shot = await extensions.scheduler.run(connection, "task_signed_in", "browser_screenshot", { tabId });
      expect(shot.result).toMatchObject({ artifactId: expect.any(String), width: expect.any(Number) });
    } finally {
      await extensions.scheduler.run(connection, "task_signed_in", "task_stop", { closeTab: true }).catch(() => undefined);
    }
  });
});
