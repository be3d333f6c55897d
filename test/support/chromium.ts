// The system Chromium that the tests, the screenshot script and the benchmarks launch themselves;
// Playwright never downloads a browser here. Without these switches Chromium keeps trying to reach
// Google's services, which closed networks refuse.
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"];
