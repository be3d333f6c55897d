import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each integration file starts its own Chromium; two at a time suit a 2-core machine.
    maxWorkers: 2,
  },
});
