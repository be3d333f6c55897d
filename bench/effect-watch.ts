// What watching an action's effect costs on the common path: on a page whose button changes the
// DOM and posts (effects.html's counter), the time of a click with its settle and its effect read
// (the page's structure before and after, and what the browser heard meanwhile: downloads, tabs,
// dialogs, navigations, requests), and of the watch alone. Writes bench/results/effect-watch.json.
import { fixtureHost, openScreen } from "../test/support/fixture-browser.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { median, quantile, timed, writeResult } from "./measure.ts";

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 100);

const pages = await startFixtureServer();
const host = fixtureHost();
try {
  const computer = await openScreen(host);
  try {
    await computer.navigate(pages.url("effects.html"));
    const action: number[] = [];
    const watch: number[] = [];
    for (let n = 0; n < ACTIONS; n++) {
      let read: () => Promise<unknown> = async () => undefined;
      const started = await timed(async () => (read = await computer.watchStructure()));
      action.push(
        started +
          (await timed(async () => {
            await computer.click(180, 280);
            await computer.settle();
          })),
      );
      const ended = await timed(read);
      watch.push(started + ended);
      action[n]! += ended;
    }
    const figures = { actions: ACTIONS, action: { median: median(action), p90: quantile(action, 0.9) }, watch: { median: median(watch), p90: quantile(watch, 0.9) } };
    console.log(`EasyAgentCU effect-watch benchmark (${ACTIONS} clicks that change the DOM and post)`);
    console.log(`  click, settle and effect read: median ${figures.action.median} ms, p90 ${figures.action.p90} ms`);
    console.log(`  the effect watch alone (before and after): median ${figures.watch.median} ms, p90 ${figures.watch.p90} ms`);
    console.log(`  written to ${await writeResult("effect-watch", figures)}`);
  } finally {
    await computer.close();
  }
} finally {
  await host.close();
  await pages.close();
}
