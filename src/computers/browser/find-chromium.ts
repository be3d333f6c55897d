// Finds a Chromium to drive: CHROME_PATH first, then Playwright's own download, then the system's.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { AppError } from "../../core/errors.ts";

const SYSTEM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
];

export function findChromium(configured: string | undefined): string {
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new AppError("BROWSER_UNAVAILABLE", `CHROME_PATH points to ${configured}, which does not exist.`);
  }
  const candidates = [playwrightChromium(), ...SYSTEM_PATHS].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  throw new AppError(
    "BROWSER_UNAVAILABLE",
    "No Chromium found. Install one (Debian/Ubuntu: `apt-get install chromium`) or set CHROME_PATH.",
  );
}

function playwrightChromium(): string | null {
  try {
    return chromium.executablePath();
  } catch {
    return null;
  }
}
