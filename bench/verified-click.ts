// What a verified click costs: the harness time per click step (model answer → next model
// request) for plain clicks, clicks confirmed by a DOM hit test, and clicks checked by the model
// (answering instantly, so only our side is measured), plus the model calls each adds and the
// median of each phase the click steps recorded. Writes bench/results/verified-click.json.
import type { ConfigInput, DeepPartial } from "../src/core/config.ts";
import type { ProgressStep } from "../src/protocol/index.ts";
import { startApp } from "../test/support/app.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { planningText, startScriptedModel, userText, type Reply } from "../test/support/scripted-model.ts";
import { openStream } from "../test/support/sse.ts";
import { median, writeResult } from "./measure.ts";

const CLICKS = 15;

const model = await startScriptedModel();
const pages = await startFixtureServer();

const click = (verify: boolean): Reply => ({
  answer: { thought: "", progress: "Pressing Still", action: { type: "click", args: { x: 180, y: 625 }, intent: "the Still button", requires_verification: verify } },
});
const done: Reply = { answer: { thought: "", progress: "Done", action: { type: "done", args: { answer: "ok" } } } };

async function measure(label: string, verify: boolean, config: DeepPartial<ConfigInput>) {
  const app = await startApp({ modelBaseUrl: model.baseUrl, config });
  try {
    const task = `bench ${label}`;
    model.route((r) => planningText(r).includes(`Task: ${task}`), ...Array.from({ length: CLICKS }, () => click(verify)), done);
    model.route((r) => userText(r).includes("on_target"), ...Array.from({ length: CLICKS }, () => ({ answer: { on_target: true, dx: 0, dy: 0 } })));
    const checksBefore = model.requests.filter((r) => userText(r).includes("on_target")).length;
    const session = `bench-${label.replace(/\W+/g, "-")}`;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("jumpy.html") });
    const stream = await openStream(app.url, session, 0);
    const end = await stream.waitForEnd(json.task_id, 120_000);
    stream.close();
    if (end.type !== "task.completed") throw new Error(`${label}: the task ended ${end.type}`);
    const planning = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
    const harness = planning.slice(1).map((r, i) => r.at - planning[i]!.answeredAt!);
    const checks = model.requests.filter((r) => userText(r).includes("on_target")).length - checksBefore;
    const clicks = stream.events.flatMap((e): ProgressStep[] => (e.type === "progress.append" && e.step.action?.type === "click" ? [e.step] : [])).slice(1);
    const phases = [...new Set(clicks.flatMap((s) => Object.keys(s.timings ?? {})))];
    const phaseMedians = Object.fromEntries(phases.map((p) => [p, median(clicks.map((s) => (s.timings as Record<string, number> | undefined)?.[p] ?? 0))]));
    return { label, median: median(harness), checks: checks / CLICKS, phases: phaseMedians };
  } finally {
    await app.close();
  }
}

try {
  const rows = [
    await measure("plain click", false, {}),
    await measure("hit test", true, { verification: { method: "auto" } }),
    await measure("model check", true, { verification: { method: "model" } }),
  ];
  const base = rows[0]!.median;
  console.log(`EasyAgentCU verified-click benchmark (${CLICKS} clicks each, instant scripted model)`);
  for (const row of rows) {
    const added = row.median - base;
    console.log(
      `  ${row.label.padEnd(12)} harness per click: median ${row.median.toFixed(1)} ms` +
        (row === rows[0] ? "" : ` (+${added.toFixed(1)} ms)`) +
        `, model calls added per click: ${row.checks.toFixed(1)}`,
    );
    console.log(`    by phase: ${Object.entries(row.phases).map(([phase, ms]) => `${phase} ${ms.toFixed(1)}`).join(", ")} (median ms)`);
  }
  console.log(`  written to ${await writeResult("verified-click", { clicks: CLICKS, rows })}`);
} finally {
  await Promise.all([model.close(), pages.close()]);
}
