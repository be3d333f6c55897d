import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A poll waits for a real browser or server, which a busy 2-core machine can make slow.
    expect: { poll: { timeout: 10_000 } },
    // Each integration file starts its own Chromium; two at a time suit a 2-core machine.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "node", include: ["src/**/*.test.ts", "test/**/*.test.ts"] } },
      // The web UI's logic and components, in a simulated DOM.
      { extends: true, test: { name: "web", include: ["web/src/**/*.test.{ts,tsx}"], environment: "jsdom" } },
    ],
  },
});
