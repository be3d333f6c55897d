import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A test waits on a real browser, X server and HTTP server, which a busy 2-core machine can make
    // several times slower: the waits are long for that, and a test that passes ends long before them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000 } },
    // Each integration file starts its own Chromium; two at a time suit a 2-core machine.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "node", include: ["src/**/*.test.ts", "test/**/*.test.ts"] } },
      // The web UI's logic and components, in a simulated DOM.
      { extends: true, test: { name: "web", include: ["web/src/**/*.test.{ts,tsx}"], environment: "jsdom" } },
    ],
  },
});
