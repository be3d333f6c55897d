// The reference for the harness: the least a loop can do with the same model protocol — capture,
// POST the planner request as our JSON planner builds it (PROTOCOL.md), parse the answer, act
// through Playwright's mouse and keyboard, next — on the same fixture page with the same scripted
// answers as backbone.ts's planner steps. No checks, no settling, no storing, no events. Its
// harness time per step (the model's answer → the next request) is the floor ours is measured against.
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { findChromium } from "../src/computers/browser/find-chromium.ts";
import { SYSTEM_PROMPT } from "../src/models/json-planner/prompt.ts";
import { CHROMIUM_ARGS } from "../test/support/chromium.ts";
import { startFixtureServer, type FixtureServer } from "../test/support/fixture-server.ts";
import { planningText, startScriptedModel, type ScriptedModel } from "../test/support/scripted-model.ts";
import { median, quantile, writeResult } from "./measure.ts";
import { stepScript } from "./step-script.ts";

interface Action {
  type: string;
  args: { x?: number; y?: number; text?: string; keys?: string[]; scroll_x?: number; scroll_y?: number };
}

/** Runs `steps` scripted steps and the final done; returns the harness time of each step. */
export async function bareLoop(model: ScriptedModel, pages: FixtureServer, steps: number): Promise<number[]> {
  const task = "bare loop steps";
  // Only this run's requests: an earlier run asked with the same task.
  const from = model.requests.length;
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...stepScript(steps));
  const browser = await chromium.launch({ executablePath: findChromium(process.env.CHROME_PATH), headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(pages.url("form.html"));
    for (let step = 1; ; step++) {
      const shot = await page.screenshot({ type: "jpeg", quality: 80 });
      const text = [`Task: ${task}`, `Step: ${step}`, `Current URL: ${page.url()}`, "Screenshot size: 1280×800 pixels", "Previous steps: none yet"].join("\n");
      const response = await fetch(`${model.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer bench" },
        body: JSON.stringify({
          model: "scripted-vl",
          response_format: { type: "json_object" },
          messages: [
            { role: "system", content: SYSTEM_PROMPT },
            { role: "user", content: [{ type: "text", text }, { type: "image_url", image_url: { url: `data:image/jpeg;base64,${shot.toString("base64")}` } }] },
          ],
        }),
      });
      const reply = (await response.json()) as { choices: { message: { content: string } }[] };
      const { action } = JSON.parse(reply.choices[0]!.message.content) as { action: Action };
      const { x = 0, y = 0 } = action.args;
      switch (action.type) {
        case "click":
          await page.mouse.click(x, y);
          break;
        case "move":
          await page.mouse.move(x, y);
          break;
        case "scroll":
          await page.mouse.move(x, y);
          await page.mouse.wheel(action.args.scroll_x ?? 0, action.args.scroll_y ?? 0);
          break;
        case "type":
          await page.keyboard.type(action.args.text ?? "");
          break;
        case "keypress":
          await page.keyboard.press(action.args.keys!.join("+"));
          break;
        case "done": {
          const asked = model.requests.slice(from).filter((r) => planningText(r).includes(`Task: ${task}`));
          return asked.slice(1).map((r, i) => r.at - asked[i]!.answeredAt!);
        }
        default:
          throw new Error(`the bare loop does not do ${action.type}`);
      }
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const model = await startScriptedModel();
  const pages = await startFixtureServer();
  try {
    const steps = await bareLoop(model, pages, Number(process.env.BENCH_STEPS ?? 20));
    const figures = { steps: steps.length, medianMs: median(steps), p90Ms: quantile(steps, 0.9) };
    console.log(`Bare playwright-core loop, harness time per step (n=${figures.steps}): median ${figures.medianMs} ms, p90 ${figures.p90Ms} ms`);
    await writeResult("bare-loop", figures);
  } finally {
    await Promise.all([model.close(), pages.close()]);
  }
}
