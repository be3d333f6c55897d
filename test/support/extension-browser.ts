// The EasyAgentCU extension loaded unpacked into real headless Chromium, as a person's Chrome with
// it installed: built first when its sources are newer than extension/dist.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Worker } from "playwright-core";
import { findChromium } from "../../src/computers/browser/find-chromium.ts";
import type { TestApp } from "./app.ts";
import { CHROMIUM_ARGS } from "./chromium.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EXTENSION = path.join(ROOT, "extension");
export const EXTENSION_DIST = path.join(EXTENSION, "dist");

/** Builds extension/dist unless it is newer than every source file. */
export function buildExtensionIfStale(): void {
  const newest = (dir: string): number =>
    Math.max(
      ...readdirSync(dir).map((name) => {
        const full = path.join(dir, name);
        const stat = statSync(full);
        return stat.isDirectory() ? newest(full) : stat.mtimeMs;
      }),
    );
  const built = existsSync(path.join(EXTENSION_DIST, "manifest.json")) ? statSync(path.join(EXTENSION_DIST, "manifest.json")).mtimeMs : 0;
  const sources = Math.max(newest(path.join(EXTENSION, "src")), statSync(path.join(EXTENSION, "manifest.json")).mtimeMs, newest(path.join(ROOT, "src/protocol")));
  if (built > sources) return;
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--config", "extension/vite.config.ts"], { cwd: ROOT, stdio: "pipe", timeout: 120_000 });
}

/**
 * A fresh profile with the extension (and any other unpacked extensions) loaded. `unseen`: folders
 * the browser cannot read, as a person's Chrome on another machine cannot read the server's disk —
 * it runs in a mount namespace of its own where each is an empty tmpfs (root only).
 */
export async function launchWithExtension(others: string[] = [], unseen: string[] = []): Promise<BrowserContext> {
  buildExtensionIfStale();
  const all = [EXTENSION_DIST, ...others].join(",");
  const executable = findChromium(process.env.CHROME_PATH);
  return chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), "easyagentcu-extension-")), {
    executablePath: unseen.length > 0 ? elsewhere(executable, unseen) : executable,
    headless: true,
    args: [`--disable-extensions-except=${all}`, `--load-extension=${all}`, "--no-sandbox", ...CHROMIUM_ARGS],
  });
}

/** The service worker of the extension with this manifest name, once it runs. */
export async function workerNamed(context: BrowserContext, name: string): Promise<Worker> {
  for (;;) {
    for (const worker of context.serviceWorkers()) {
      const named = await worker.evaluate(() => (globalThis as unknown as { chrome: { runtime: { getManifest(): { name: string } } } }).chrome.runtime.getManifest().name).catch(() => null);
      if (named === name) return worker;
    }
    await context.waitForEvent("serviceworker", { timeout: 500 }).catch(() => undefined);
  }
}

/** A script that starts Chromium where `unseen` are empty: unshare's own mount namespace, a tmpfs over each. */
function elsewhere(executable: string, unseen: string[]): string {
  const script = path.join(mkdtempSync(path.join(tmpdir(), "easyagentcu-elsewhere-")), "chromium");
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const mounts = unseen.map((dir) => `mount -t tmpfs none ${quote(dir)}`).join(" && ");
  writeFileSync(script, `#!/bin/sh\nexec unshare -m sh -c ${quote(`${mounts} && exec "$0" "$@"`)} ${quote(executable)} "$@"\n`);
  chmodSync(script, 0o755);
  return script;
}

// The extension worker's storage, as seen from the test's side of `evaluate`.
declare const chrome: { storage: { local: { set(items: object): Promise<void>; get(key: string): Promise<Record<string, unknown>> } } };

/**
 * A person's Chrome with the extension, pointed at `app` and connected to it: the extension's
 * worker has the server's address and install token, and the server's registry has its client.
 * `unseen`: folders the browser cannot read (the server's data dir, for a Chrome on another machine).
 */
export async function chromeConnectedTo(app: TestApp, unseen: string[] = []): Promise<{ context: BrowserContext; worker: Worker }> {
  const context = await launchWithExtension([], unseen);
  const worker = await workerNamed(context, "EasyAgentCU");
  await worker.evaluate(([serverUrl, token]) => chrome.storage.local.set({ serverUrl, token }), [app.url, app.system.installToken] as const);
  await app.system.extensions.registry.waitFor(await worker.evaluate(async () => String((await chrome.storage.local.get("clientId")).clientId)), 15_000);
  return { context, worker };
}
