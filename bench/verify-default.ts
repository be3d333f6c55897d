// What the default click verification costs each planner family: the same clicks on a fixture
// page, answered at once by the scripted model in each family's own format, with VERIFY_CLICKS at
// its default (every click on a page hit-tested) and with VERIFY_CLICKS=never, in turn in the
// same run. Per click step: the hit test (the step's verification phase), the model's look where
// the family has one and the hit test fails, and the harness time from the model's answer to the
// next request. Writes bench/results/verify-default.json.
import type { ConfigInput, DeepPartial } from "../src/core/config.ts";
import type { ProgressStep } from "../src/protocol/index.ts";
import { startApp, type TestApp } from "../test/support/app.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { everyFamilyAt, PLANNER_FAMILIES, type PlannerFamily } from "../test/support/planner-families.ts";
import { startScriptedModel, userText, type RecordedRequest } from "../test/support/scripted-model.ts";
import { openStream } from "../test/support/sse.ts";
import { median, writeResult } from "./measure.ts";

const CLICKS = 12;
const ROUNDS = 2;
/** jumpy.html's "Still" button: the hit test holds it at once. */
const STILL = [{ x: 180, y: 625 }];
/** hover-styles.html's two buttons drawn anew with a new label whenever the pointer enters them: the hit test fails, a look confirms. */
const RELABELLED = [
  { x: 180, y: 675 },
  { x: 380, y: 675 },
];

const model = await startScriptedModel();
const pages = await startFixtureServer();
const isChatLook = (r: RecordedRequest) => r.path.endsWith("/chat/completions") && userText(r).includes("on_target");
/** Claude's look: a Messages request of its own, without the computer tool. */
const isClaudeLook = (r: RecordedRequest) => r.path.endsWith("/v1/messages") && r.body.tools === undefined && JSON.stringify(r.body.messages).includes("on_target");
const isLook = (r: RecordedRequest) => isChatLook(r) || isClaudeLook(r);
const claudeOnTarget = {
  message: { id: "msg_look", type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: '{"on_target": true, "dx": 0, "dy": 0}' }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } },
};

interface Measured {
  /** Harness ms per click step: the model's answer to the next request. */
  steps: number[];
  verification: number[];
  looks: number;
}

let tasks = 0;
async function run(app: TestApp, family: PlannerFamily, page: string, points: { x: number; y: number }[]): Promise<Measured> {
  const task = `bench verify ${++tasks}`;
  const from = model.requests.length;
  const looksBefore = model.requests.filter(isLook).length;
  model.route(family.requests(task), ...Array.from({ length: CLICKS }, (_, i) => family.click(points[i % points.length]!)), family.finish());
  model.route(isChatLook, ...Array.from({ length: CLICKS * 4 }, () => ({ answer: { on_target: true, dx: 0, dy: 0 } })));
  model.route(isClaudeLook, ...Array.from({ length: CLICKS * 4 }, () => claudeOnTarget));
  const session = `bench-verify-${tasks}`;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url(page), model: family.choice });
  const stream = await openStream(app.url, session, 0);
  const end = await stream.waitForEnd(json.task_id, 120_000);
  stream.close();
  if (end.type !== "task.completed") throw new Error(`${family.choice.provider} on ${page}: the task ended ${end.type}`);
  const mine = family.requests(task);
  const planning = model.requests.slice(from).filter((r) => mine(r) && !isLook(r));
  // The first click is the page's first: it is left out, as are its first answer's costs.
  const steps = planning.slice(2).map((r, i) => r.at - planning[i + 1]!.answeredAt!);
  const clicks = stream.events.flatMap((e): ProgressStep[] => (e.type === "progress.append" && e.step.action?.type === "click" ? [e.step] : [])).slice(1);
  return { steps, verification: clicks.map((s) => (s.timings as Record<string, number> | undefined)?.verification ?? 0), looks: model.requests.filter(isLook).length - looksBefore };
}

function merge(runs: Measured[]): Measured {
  return { steps: runs.flatMap((r) => r.steps), verification: runs.flatMap((r) => r.verification), looks: runs.reduce((sum, r) => sum + r.looks, 0) };
}

const config = everyFamilyAt(model.baseUrl);
const never: DeepPartial<ConfigInput> = { ...config, verification: { clicks: "never" } };
const [byDefault, unchecked] = await Promise.all([startApp({ modelBaseUrl: model.baseUrl, config }), startApp({ modelBaseUrl: model.baseUrl, config: never })]);
try {
  const cases: { label: string; family: PlannerFamily; page: string; points: { x: number; y: number }[] }[] = [
    ...Object.entries(PLANNER_FAMILIES).map(([label, family]) => ({ label, family: family as PlannerFamily, page: "jumpy.html", points: STILL })),
    { label: "JSON planner, hit test fails", family: PLANNER_FAMILIES["JSON planner"] as PlannerFamily, page: "hover-styles.html", points: RELABELLED },
    { label: "Anthropic, hit test fails", family: PLANNER_FAMILIES.Anthropic as PlannerFamily, page: "hover-styles.html", points: RELABELLED },
  ];
  const rows = [];
  for (const c of cases) {
    const checked: Measured[] = [];
    const plain: Measured[] = [];
    // In turn, so that the machine's load falls alike on both.
    for (let round = 0; round < ROUNDS; round++) {
      checked.push(await run(byDefault, c.family, c.page, c.points));
      plain.push(await run(unchecked, c.family, c.page, c.points));
    }
    const on = merge(checked);
    const off = merge(plain);
    const clicks = CLICKS * ROUNDS;
    rows.push({
      label: c.label,
      verificationMs: median(on.verification),
      looksPerClick: Math.round((on.looks / clicks) * 100) / 100,
      stepMs: median(on.steps),
      neverStepMs: median(off.steps),
      addedMs: Math.round((median(on.steps) - median(off.steps)) * 10) / 10,
    });
  }
  console.log(`EasyAgentCU default click verification per planner family (${CLICKS} clicks × ${ROUNDS} rounds each, instant scripted model; VERIFY_CLICKS default vs never, in turn)`);
  for (const row of rows) {
    const check = row.looksPerClick > 0 ? `hit test + look ${row.verificationMs.toFixed(1)} ms (${row.looksPerClick.toFixed(2)} looks a click)` : `hit test ${row.verificationMs.toFixed(1)} ms, no look`;
    console.log(`  ${row.label.padEnd(29)} ${check}; step ${row.stepMs.toFixed(1)} ms, with VERIFY_CLICKS=never ${row.neverStepMs.toFixed(1)} ms (${row.addedMs >= 0 ? "+" : ""}${row.addedMs.toFixed(1)} ms)`);
  }
  console.log(`  written to ${await writeResult("verify-default", { clicks: CLICKS, rounds: ROUNDS, rows })}`);
} finally {
  await Promise.all([byDefault.close(), unchecked.close()]);
  await Promise.all([model.close(), pages.close()]);
}
