// Replay benchmark: a tool-agent task (sign up on the long form: ariaTree, fillForm, act Submit,
// close) run once with the model, then run again from its recording. Prints both times and the
// model calls each made, for an instant model and for one that takes a second per answer, as a
// hosted model does. Run again is pressed a second after the answer came, as a person reading it
// would, and each task is sent a second after the one before ended: sent at once, a task also waits
// for the next browser context, which opens as a task ends (backbone.ts measures that wait as "back
// to back"). Asserts nothing.
import { performance } from "node:perf_hooks";
import { startApp } from "../test/support/app.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { startScriptedModel, systemText, userText, type RecordedRequest, type Reply, type Responder } from "../test/support/scripted-model.ts";
import { openStream } from "../test/support/sse.ts";

/** How long after a task ended the next one is sent. */
const READ_MS = 1000;
const pause = () => new Promise((resolve) => setTimeout(resolve, READ_MS));

const model = await startScriptedModel();
const pages = await startFixtureServer();
const app = await startApp({ modelBaseUrl: model.baseUrl, });

const refIn = (r: RecordedRequest, role: string, name: string) => new RegExp(`- ${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(r))![1];

async function until(session: string, taskId: string): Promise<void> {
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(taskId, 120_000);
  events.close();
  if (end.type !== "task.completed") throw new Error(`the task ended ${end.type}`);
}

async function measure(latencyMs: number, n: number) {
  const goal = `Sign Ada up (${latencyMs} ms, ${n})`;
  const slow = (reply: Reply | Responder): Responder => (r) => ({ ...(typeof reply === "function" ? reply(r) : reply), delayMs: latencyMs }) as Reply;
  const calls = (name: string, args: unknown) => slow({ chat: { calls: [{ name, arguments: args }] } });
  const fields = [
    ["the First name field", "Ada", "First name"],
    ["the Last name field", "Lovelace", "Last name"],
    ["the Email field", "ada@example.org", "Email"],
    ["the City field", "London", "City"],
  ] as const;
  model.route(
    (r) => systemText(r).startsWith("<identity>") && JSON.stringify(r.body.messages[1]).includes(goal),
    calls("ariaTree", {}),
    calls("fillForm", { fields: fields.map(([action, value]) => ({ action, value })) }),
    calls("act", { action: "click the Submit button" }),
    calls("close", { reasoning: "Signed up.", taskComplete: true }),
  );
  model.route(
    (r) => systemText(r).startsWith("You choose elements") && userText(r).includes("long-form.html"),
    slow((r) => ({ text: JSON.stringify({ fields: fields.map(([, value, label]) => ({ ref: refIn(r, "textbox", label), method: "fill", value })) }) })),
    slow((r) => ({ text: JSON.stringify({ ref: refIn(r, "button", "Submit"), method: "click" }) })),
  );
  const session = `bench-replay-${latencyMs}-${n}`;
  const asked0 = model.requests.length;
  await pause();
  let t0 = performance.now();
  const first = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: session, text: goal, start_url: pages.url("long-form.html") });
  await until(session, first.json.task_id);
  const original = performance.now() - t0;
  const asked1 = model.requests.length;
  await pause();
  t0 = performance.now();
  const again = await app.api<{ task_id: string }>("POST", "/api/chat/replay", { task_id: first.json.task_id });
  await until(session, again.json.task_id);
  const replay = performance.now() - t0;
  return { original, replay, originalCalls: asked1 - asked0, replayCalls: model.requests.length - asked1 };
}

try {
  await measure(0, 0); // warm-up: the first task launches Chromium
  console.log("EasyAgentCU replay benchmark (long form: ariaTree, fillForm of 4 fields, act Submit, close)");
  for (const latencyMs of [0, 1000]) {
    const runs = [await measure(latencyMs, 1), await measure(latencyMs, 2), await measure(latencyMs, 3)];
    const median = (pick: (r: (typeof runs)[number]) => number) => runs.map(pick).sort((a, b) => a - b)[1]!;
    const original = median((r) => r.original);
    const replay = median((r) => r.replay);
    console.log(
      `  model answers in ${latencyMs} ms: original ${original.toFixed(0)} ms (${runs[0]!.originalCalls} model calls), ` +
        `replay ${replay.toFixed(0)} ms (${runs[0]!.replayCalls} model calls) — saves ${(original - replay).toFixed(0)} ms, ${((1 - replay / original) * 100).toFixed(0)}%`,
    );
  }
} finally {
  await app.close();
  await Promise.all([model.close(), pages.close()]);
}
