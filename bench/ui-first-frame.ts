// Send → the first frame of the screen shown in the UI, in a real browser: a person types a task
// in the chat and presses Enter; the clock stops when the run card's screen has an image painted
// from a frame. The first task launches the agent's Chromium (cold); the ones after it find a
// warm context. Prints figures and writes bench/results/ui-first-frame.json; asserts nothing.
import { chromium } from "playwright-core";
import { startApp } from "../test/support/app.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../test/support/chromium.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { planningText, startScriptedModel } from "../test/support/scripted-model.ts";
import { median, writeResult } from "./measure.ts";
import { stepScript } from "./step-script.ts";

const RUNS = Number(process.env.BENCH_UI_RUNS ?? 6);

const model = await startScriptedModel();
const pages = await startFixtureServer();
const app = await startApp({ modelBaseUrl: model.baseUrl, config: { limits: { maxSteps: 1000 } } });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

const times: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const name = `ui-first-frame-${run}`;
    model.route((r) => planningText(r).includes(`Task: ${name}\n`), ...stepScript(500));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(app.url);
    await page.getByRole("textbox", { name: "Start URL (optional)" }).fill(pages.url("form.html"));
    await page.getByRole("textbox", { name: "Message" }).fill(name);
    await page.evaluate(() => ((window as unknown as { sentAt: number }).sentAt = performance.now()));
    await page.keyboard.press("Enter");
    const shown = await page.waitForFunction(
      () => {
        const image = document.querySelector<HTMLImageElement>('[data-testid="run-card"] figure img');
        return image?.complete && image.naturalWidth > 0 ? performance.now() - (window as unknown as { sentAt: number }).sentAt : null;
      },
      undefined,
      { timeout: 30_000, polling: "raf" },
    );
    times.push(Math.round((await shown.jsonValue())!));
    await page.getByRole("button", { name: "Stop the task" }).click();
    await page.locator('[data-testid="run-card"][data-status="stopped"]').waitFor({ timeout: 30_000 });
    await page.close();
  }
} finally {
  await browser.close();
  await app.close();
  await pages.close();
  await model.close();
}

const [cold, ...warm] = times;
console.log(`EasyAgentCU send → first frame shown in the UI (1280×800, a real Chromium): cold ${cold} ms; warm median ${median(warm)} ms (${warm.join(", ")})`);
console.log(`  → ${await writeResult("ui-first-frame", { coldMs: cold, warmMs: warm, warmMedianMs: median(warm) })}`);
