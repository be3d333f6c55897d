// End-to-end tests of the web UI in the system Chromium (never a downloaded browser), against
// the real server started in-process by each test, with only the model scripted.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/chromium.ts";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  // Each test runs its own server and two Chromiums; one at a time suits a 2-core machine.
  workers: 1,
  // Generous: CI shares two cores with the in-process server, its browsers and the scripted model,
  // and a passing test waits no longer for it.
  timeout: 90_000,
  expect: { timeout: 30_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  outputDir: "../../test-results/e2e",
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    trace: "retain-on-failure",
  },
});
