// How much a page costs the model to read: the ARIA tree's size in characters (≈ 4 per token) and
// its refs, and how many elements the DOM index numbers on screen and in the whole document, per
// fixture page. Prints figures; asserts nothing.
import { chromium } from "playwright-core";
import { findChromium } from "../src/computers/browser/find-chromium.ts";
import { ariaTree, domIndex, waitForLoaded } from "../src/computers/browser/page-understanding.ts";
import { CHROMIUM_ARGS } from "../test/support/chromium.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";

const PAGES = ["form", "iframe", "shadow", "long-form", "drag-list", "slow", "article", "effects", "input-lab"];

const pages = await startFixtureServer();
const browser = await chromium.launch({
  executablePath: findChromium(process.env.CHROME_PATH),
  args: ["--no-sandbox", ...CHROMIUM_ARGS],
});

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  console.log("EasyAgentCU page-size benchmark (1280×800 viewport)");
  console.log(`  ${"page".padEnd(10)} ${"ARIA chars".padStart(10)} ${"refs".padStart(5)} ${"index (viewport)".padStart(17)} ${"index (document)".padStart(17)}`);
  for (const name of PAGES) {
    await page.goto(pages.url(`${name}.html`));
    await waitForLoaded(page, 10_000);
    // The slow page shows its results only after 1.5 s; measure it as the agent would use it.
    if (name === "slow") await page.getByRole("button", { name: "Open results" }).waitFor();
    const { content } = await ariaTree(page);
    const refs = content.match(/\[ref=/g)?.length ?? 0;
    const onScreen = (await domIndex(page, { scope: "viewport" })).length;
    const all = (await domIndex(page, { scope: "document" })).length;
    console.log(`  ${name.padEnd(10)} ${String(content.length).padStart(10)} ${String(refs).padStart(5)} ${String(onScreen).padStart(17)} ${String(all).padStart(17)}`);
  }
} finally {
  await browser.close();
  await pages.close();
}
