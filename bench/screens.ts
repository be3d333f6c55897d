// What a screen costs (issue 15; targets in brackets): the browser computer's screenshot as a step
// takes it (BrowserHost → BrowserComputer.screenshot, JPEG quality 80) of a text-heavy page at
// 1280×800 [p50 ≤ 30 ms] and 1920×1080, each beside a bare playwright-core `page.screenshot` of the
// same page in a browser of its own (the floor: Chromium's own capture), taken in turn with ours so
// both see the machine as it is; and the live view while a task steps continuously: the
// `screen.live` events a viewer receives a second and the bytes it downloads a second to show them
// (each frame fetched once, as the UI does). The desktop's captures are in desktop.ts. Prints the
// figures and writes bench/results/screens.json; asserts nothing.
import os from "node:os";
import { chromium } from "playwright-core";
import { findChromium } from "../src/computers/browser/find-chromium.ts";
import { INSTALL_TOKEN_HEADER } from "../src/protocol/index.ts";
import { startApp } from "../test/support/app.ts";
import { CHROMIUM_ARGS } from "../test/support/chromium.ts";
import { fixtureHost, openScreen } from "../test/support/fixture-browser.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { startScriptedModel } from "../test/support/scripted-model.ts";
import { median, quantile, timed, writeResult } from "./measure.ts";
import { startSteppingTask } from "./stepping-task.ts";

const SHOTS = 40;
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);

const pages = await startFixtureServer();
const figures: Record<string, unknown> = { loadBefore: os.loadavg()[0] };
try {
  const host = fixtureHost();
  try {
    const bare = await chromium.launch({ executablePath: findChromium(process.env.CHROME_PATH), headless: true, args: CHROMIUM_ARGS });
    try {
      for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
        const computer = await openScreen(host, width, height);
        const page = await bare.newPage({ viewport: { width, height } });
        try {
          await computer.navigate(pages.url("article.html"));
          await page.goto(pages.url("article.html"));
          const ours = () => computer.screenshot().then((shot) => shot.data.length);
          const theirs = () => page.screenshot({ type: "jpeg", quality: 80 }).then((shot) => shot.length);
          for (let i = 0; i < 3; i++) await ours().then(theirs);
          const times = { ours: [] as number[], bare: [] as number[] };
          let bytes = 0;
          for (let i = 0; i < SHOTS; i++) {
            times.ours.push(await timed(async () => (bytes += await ours())));
            times.bare.push(await timed(theirs));
          }
          const shot = { p50Ms: median(times.ours), p90Ms: quantile(times.ours, 0.9), kb: Math.round(bytes / SHOTS / 1024), bare: { p50Ms: median(times.bare), p90Ms: quantile(times.bare, 0.9) } };
          figures[`browserScreenshot${width}x${height}`] = shot;
          console.log(
            `browser screenshot ${width}×${height} (n=${SHOTS}): p50 ${shot.p50Ms} ms, p90 ${shot.p90Ms} ms, ${shot.kb} KB${width === 1280 ? " [target p50 ≤ 30 ms]" : ""}; bare playwright-core page.screenshot: p50 ${shot.bare.p50Ms} ms, p90 ${shot.bare.p90Ms} ms`,
          );
        } finally {
          await Promise.all([computer.close(), page.close()]);
        }
      }
    } finally {
      await bare.close();
    }
  } finally {
    await host.close();
  }

  const model = await startScriptedModel();
  const app = await startApp({ modelBaseUrl: model.baseUrl, config: { limits: { maxSteps: 100_000 } } });
  try {
    const task = await startSteppingTask(app, model, pages, "live-view");
    let frames = 0;
    let bytes = 0;
    let seen = task.stream.events.length;
    const downloads: Promise<void>[] = [];
    const started = performance.now();
    const stepsBefore = task.steps();
    // The viewer: every screen.live that arrives, fetched as the UI's <img> would.
    const poll = setInterval(() => {
      for (const event of task.stream.events.slice(seen)) {
        if (event.type !== "screen.live") continue;
        frames++;
        downloads.push(fetch(`${app.url}${event.frame.url}`, { headers: { [INSTALL_TOKEN_HEADER]: app.system.installToken } }).then(async (r) => void (bytes += (await r.arrayBuffer()).byteLength)));
      }
      seen = task.stream.events.length;
    }, 50);
    await new Promise((resolve) => setTimeout(resolve, LIVE_SECONDS * 1000));
    clearInterval(poll);
    const seconds = (performance.now() - started) / 1000;
    const steps = task.steps() - stepsBefore;
    await Promise.all(downloads);
    await task.stop();
    const live = { seconds: Math.round(seconds * 10) / 10, fps: round(frames / seconds), kbPerSecond: Math.round(bytes / seconds / 1024), kbPerFrame: frames ? Math.round(bytes / frames / 1024) : 0, stepsPerSecond: round(steps / seconds) };
    figures.liveView1280x800 = live;
    console.log(`live view while a task steps (1280×800, LIVE_FPS 10, ${live.seconds} s): ${live.fps} frames/s, ${live.kbPerSecond} KB/s (${live.kbPerFrame} KB a frame), the task at ${live.stepsPerSecond} steps/s`);
  } finally {
    await app.close();
    await model.close();
  }
  figures.loadAfter = os.loadavg()[0];
  console.log(`load average (1 min) before ${round(figures.loadBefore as number)}, after ${round(figures.loadAfter as number)}, ${os.cpus().length} CPUs`);
  console.log(`written to ${await writeResult("screens", figures)}`);
} finally {
  await pages.close();
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
