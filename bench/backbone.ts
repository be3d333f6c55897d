// Backbone benchmark: the time from POST /api/chat/send to `task.started` and to the first
// `screen.live` on the SSE stream (cold: the first task, which launches Chromium; warm: the tasks
// after it, sent a moment after the one before ended, back to back, and the moment a task that
// worked for a second ended), to `task.started` through the chat assistant's tool call, to the assistant's first
// streamed words, and the harness time per step (everything between the model's answer and the
// next model request: parsing, acting through the checked hands, settling, capturing, storing,
// emitting) for both drivers, the planner loop and the tool agent (also on a generated page of 7k
// elements, where reading what a click acts on costs most), with the median of each phase
// the steps recorded (their `timings`); the planner loop's steps, watched and not, in turn with the
// bare playwright-core loop (bare-loop.ts) on the same steps. Prints figures and writes them to
// bench/results/backbone.json; asserts nothing.
import { performance } from "node:perf_hooks";
import { isFinished, type ProgressStep, type SessionEvent } from "../src/protocol/index.ts";
import { startApp } from "../test/support/app.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { act, planningText, startScriptedModel, systemText, type RecordedRequest, type Reply } from "../test/support/scripted-model.ts";
import { openStream } from "../test/support/sse.ts";
import { bareLoop } from "./bare-loop.ts";
import { median, quantile, writeResult } from "./measure.ts";
import { generatedPage } from "./page-set.ts";
import { actionType, stepScript } from "./step-script.ts";

const SENDS = 20;
const STEPS = Number(process.env.BENCH_STEPS ?? 20);
const ROUNDS = 3;
const PAUSE_MS = 500;
const AFTER_WORK_SENDS = 10;

const model = await startScriptedModel();
const BIG_PAGE = "generated-7k.html";
const pages = await startFixtureServer({ [BIG_PAGE]: generatedPage(7_000) });
const app = await startApp({ modelBaseUrl: model.baseUrl });

try {
  // Each task's first screen: the model holds its answer until the screen has been seen.
  const firstScreen = async (session: string, task: string) => {
    let seen = () => {};
    const shown = new Promise<void>((resolve) => (seen = resolve));
    model.route((r) => planningText(r).includes(`Task: ${task}`), { ...act("done", { answer: "ok" }), until: shown });
    await app.system.store.ensureSession(session, "bench");
    const stream = await openStream(app.url, session, 0);
    const t0 = performance.now();
    const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task });
    await stream.waitFor((e) => e.type === "task.started");
    const started = performance.now() - t0;
    await stream.waitFor((e) => e.type === "screen.live");
    const live = performance.now() - t0;
    seen();
    await stream.waitForEnd(sent.json.task_id);
    stream.close();
    return { started, live };
  };
  // The first task launches Chromium.
  const cold = await firstScreen("bench-cold", "cold start");
  const startLatencies: number[] = [];
  const liveLatencies: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    // As a person sends the next task: not the moment the last one ended.
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const { started, live } = await firstScreen(`bench-start-${i}`, `start ${i}`);
    startLatencies.push(started);
    liveLatencies.push(live);
  }
  const backToBack: number[] = [];
  for (let i = 0; i < SENDS; i++) backToBack.push((await firstScreen(`bench-next-${i}`, `next ${i}`)).live);
  // Sent the moment a task that worked for a second ends: the context opened while it ran is ready.
  const afterWork: number[] = [];
  for (let i = 0; i < AFTER_WORK_SENDS; i++) {
    model.route((r) => planningText(r).includes(`Task: work ${i}\n`), act("wait", { ms: 1000 }), act("done", { answer: "ok" }));
    await app.system.store.ensureSession(`bench-work-${i}`, "bench");
    const stream = await openStream(app.url, `bench-work-${i}`, 0);
    const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: `bench-work-${i}`, text: `work ${i}` });
    await stream.waitForEnd(sent.json.task_id);
    stream.close();
    afterWork.push((await firstScreen(`bench-after-${i}`, `after ${i}`)).live);
  }

  const firstWords: number[] = [];
  const delegated: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const session = `bench-chat-${i}`;
    await app.system.store.ensureSession(session, "bench");
    const stream = await openStream(app.url, session, 0);
    model.chat({ chat: { text: "An instant answer, streamed in a few pieces." } });
    let t0 = performance.now();
    await app.api("POST", "/api/chat/send", { session_id: session, text: `question ${i}` });
    await stream.waitFor((e) => e.type === "chat.delta");
    firstWords.push(performance.now() - t0);
    await stream.waitFor((e) => e.type === "chat.completed");
    // No chat script: the assistant hands the message to computer_task as it is.
    model.route((r) => planningText(r).includes(`Task: delegated ${i}`), act("done", { answer: "ok" }));
    t0 = performance.now();
    await app.api("POST", "/api/chat/send", { session_id: session, text: `delegated ${i}` });
    const started = await stream.waitFor((e) => e.type === "task.started");
    delegated.push(performance.now() - t0);
    await stream.waitForEnd("task_id" in started ? started.task_id : "");
    await stream.waitFor((e) => e.type === "chat.completed" && e.id > started.id);
    stream.close();
  }

  // The planner loop's steps and the bare loop's, in turn, ROUNDS times: on a machine whose speed
  // drifts, both see it alike. Ours once with someone watching (the live view streams) and once
  // with nobody (the bare loop streams nothing).
  const actions = stepScript(STEPS);
  const harness: number[] = [];
  const unwatched: number[] = [];
  const bare: number[] = [];
  const stepEvents: SessionEvent[][] = [];
  let total = 0;
  const byKind = new Map<string, number[]>();
  const runs: ((round: number) => Promise<void>)[] = [
    async (round) => {
      const watched = await plannerSteps(`steps ${round}`, true);
      harness.push(...watched.harness);
      // Each step's time under its action, counted within the task: a task's steps are its own.
      watched.harness.forEach((ms, i) => byKind.set(actionType(actions[i]!), [...(byKind.get(actionType(actions[i]!)) ?? []), ms]));
      stepEvents.push(watched.events);
      total += watched.ms / ROUNDS;
    },
    async (round) => void unwatched.push(...(await plannerSteps(`unwatched steps ${round}`, false)).harness),
    async () => void bare.push(...(await bareLoop(model, pages, STEPS))),
  ];
  // Each round in another order: whatever the machine does over a round falls on each alike.
  for (let round = 0; round < ROUNDS; round++) for (let i = 0; i < runs.length; i++) await runs[(round + i) % runs.length]!(round);
  const plannerPhases = phaseMedians(...stepEvents);

  const formTools = await toolSteps("tool steps", "form.html", [
    ["click", { describe: "the Press me button", coordinates: [200, 130] }],
    ["type", { describe: "the Name field", text: "abc", coordinates: [250, 240] }],
    ["keys", { method: "press", value: "Backspace" }],
    ["scrollVision", { direction: "down", percentage: 20 }],
    ["think", { reasoning: "next" }],
  ]);
  // Clicks and typing on a page of 7k elements: a row's checkbox and the Owner filter.
  const bigTools = await toolSteps("big page tool steps", BIG_PAGE, [
    ["click", { describe: "the first row's checkbox", coordinates: [254, 513] }],
    ["type", { describe: "the Owner field", text: "abc", coordinates: [700, 357] }],
  ]);
  const figures = {
    coldStartedMs: round(cold.started),
    coldFirstLiveMs: round(cold.live),
    startedMs: { median: median(startLatencies), p90: quantile(startLatencies, 0.9) },
    firstLiveMs: { median: median(liveLatencies), p90: quantile(liveLatencies, 0.9) },
    backToBackFirstLiveMs: { median: median(backToBack), p90: quantile(backToBack, 0.9) },
    afterWorkFirstLiveMs: { median: median(afterWork), p90: quantile(afterWork, 0.9) },
    firstWordsMs: { median: median(firstWords), p90: quantile(firstWords, 0.9) },
    delegatedStartedMs: { median: median(delegated), p90: quantile(delegated, 0.9) },
    planner: { steps: harness.length, medianMs: median(harness), p90Ms: quantile(harness, 0.9), maxMs: Math.max(...harness), byAction: medians(byKind), phases: plannerPhases, taskMs: round(total) },
    plannerUnwatched: { steps: unwatched.length, medianMs: median(unwatched), p90Ms: quantile(unwatched, 0.9) },
    bareLoop: { steps: bare.length, medianMs: median(bare), p90Ms: quantile(bare, 0.9) },
    toolAgent: formTools,
    toolAgentBigPage: bigTools,
  };
  const { planner, toolAgent, toolAgentBigPage } = figures;
  console.log("EasyAgentCU backbone benchmark");
  console.log(`  POST /send → task.started, cold (the first task, Chromium launched): ${fmt(figures.coldStartedMs)} ms; → first screen.live: ${fmt(figures.coldFirstLiveMs)} ms`);
  console.log(`  POST /send → task.started (n=${SENDS}): median ${fmt(figures.startedMs.median)} ms, p90 ${fmt(figures.startedMs.p90)} ms`);
  console.log(`  POST /send → first screen.live, warm, ${PAUSE_MS} ms after the task before (n=${SENDS}): median ${fmt(figures.firstLiveMs.median)} ms, p90 ${fmt(figures.firstLiveMs.p90)} ms`);
  console.log(`  POST /send → first screen.live, back to back (n=${SENDS}): median ${fmt(figures.backToBackFirstLiveMs.median)} ms, p90 ${fmt(figures.backToBackFirstLiveMs.p90)} ms`);
  console.log(`  POST /send → first screen.live, the moment a task that worked for a second ended (n=${AFTER_WORK_SENDS}): median ${fmt(figures.afterWorkFirstLiveMs.median)} ms, p90 ${fmt(figures.afterWorkFirstLiveMs.p90)} ms`);
  console.log(`  POST /send → the assistant's first streamed words, instant model (n=${SENDS}): median ${fmt(figures.firstWordsMs.median)} ms, p90 ${fmt(figures.firstWordsMs.p90)} ms`);
  console.log(`  POST /send → task.started through the assistant's tool call, instant model (n=${SENDS}): median ${fmt(figures.delegatedStartedMs.median)} ms, p90 ${fmt(figures.delegatedStartedMs.p90)} ms`);
  console.log(`  planner loop, harness time per step, ${ROUNDS} rounds in turn with the others (n=${planner.steps}): median ${fmt(planner.medianMs)} ms, p90 ${fmt(planner.p90Ms)} ms, max ${fmt(planner.maxMs)} ms`);
  console.log(`    the same with nobody watching (n=${figures.plannerUnwatched.steps}): median ${fmt(figures.plannerUnwatched.medianMs)} ms, p90 ${fmt(figures.plannerUnwatched.p90Ms)} ms`);
  console.log(`    bare playwright-core loop, same steps (n=${figures.bareLoop.steps}): median ${fmt(figures.bareLoop.medianMs)} ms, p90 ${fmt(figures.bareLoop.p90Ms)} ms`);
  console.log(`    by action: ${Object.entries(planner.byAction).map(([kind, ms]) => `${kind} ${fmt(ms)}`).join(", ")} (median ms)`);
  console.log(`    by phase: ${Object.entries(planner.phases).map(([phase, ms]) => `${phase} ${fmt(ms)}`).join(", ")} (median ms)`);
  console.log(`    ${STEPS}-step task end to end with an instant model, watched: ${fmt(planner.taskMs)} ms (mean of ${ROUNDS})`);
  console.log(`  tool agent (hybrid), harness time per step (n=${toolAgent.steps}): median ${fmt(toolAgent.medianMs)} ms, p90 ${fmt(toolAgent.p90Ms)} ms`);
  console.log(`    by tool: ${Object.entries(toolAgent.byTool).map(([name, ms]) => `${name} ${fmt(ms)}`).join(", ")} (median ms)`);
  console.log(`    by phase: ${Object.entries(toolAgent.phases).map(([phase, ms]) => `${phase} ${fmt(ms)}`).join(", ")} (median ms)`);
  console.log(`    on a generated page of 7k elements (n=${toolAgentBigPage.steps}): median ${fmt(toolAgentBigPage.medianMs)} ms; by tool: ${Object.entries(toolAgentBigPage.byTool).map(([name, ms]) => `${name} ${fmt(ms)}`).join(", ")} (median ms)`);
  console.log(`  written to ${await writeResult("backbone", figures)}`);
} finally {
  await app.close();
  await Promise.all([model.close(), pages.close()]);
}

/**
 * Runs a task of the scripted steps on form.html; `watched`: with the session's stream open, as
 * in the chat, else its end is read from the store. Returns the harness time of each step.
 */
async function plannerSteps(task: string, watched: boolean): Promise<{ harness: number[]; events: SessionEvent[]; ms: number }> {
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...stepScript(STEPS));
  const session = `bench-${task.replaceAll(" ", "-")}`;
  await app.system.store.ensureSession(session, "bench");
  const stream = watched ? await openStream(app.url, session, 0) : null;
  const t0 = performance.now();
  const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
  const status = stream ? (await stream.waitForEnd(sent.json.task_id, 120_000)).type.replace("task.", "") : await storedEnd(sent.json.task_id);
  const ms = performance.now() - t0;
  stream?.close();
  if (status !== "completed") throw new Error(`the step task "${task}" ended ${status}`);
  const planning = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  return { harness: planning.slice(1).map((r, i) => r.at - planning[i]!.answeredAt!), events: stream?.events ?? [], ms };
}

/**
 * Runs a tool-agent task (hybrid) on `page` that makes the calls in turn, 14 in all, then closes
 * (the agent's own step cap, AGENT_MAX_STEPS 15, holds them and close); returns the harness time
 * of each call's step, by tool and by phase.
 */
async function toolSteps(goal: string, page: string, kinds: [string, unknown][]) {
  const calls = Array.from({ length: 14 }, (_, i) => kinds[i % kinds.length]!);
  const isToolAgent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}\\n`);
  model.route(isToolAgent, ...[...calls, ["close", { reasoning: "done", taskComplete: true }] as [string, unknown]].map(([name, args]): Reply => ({ chat: { calls: [{ name, arguments: args }] } })));
  const session = `bench-${goal.replaceAll(" ", "-")}`;
  await app.system.store.ensureSession(session, "bench");
  const stream = await openStream(app.url, session, 0);
  const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: session, text: goal, start_url: pages.url(page) });
  const end = await stream.waitForEnd(sent.json.task_id, 120_000);
  stream.close();
  if (end.type !== "task.completed") throw new Error(`the tool task on ${page} ended ${JSON.stringify(end)}`);
  const requests = model.requests.filter(isToolAgent);
  const harness = requests.slice(1).map((r, i) => r.at - requests[i]!.answeredAt!);
  const byKind = new Map<string, number[]>();
  harness.forEach((ms, i) => byKind.set(calls[i]![0], [...(byKind.get(calls[i]![0]) ?? []), ms]));
  return { steps: harness.length, medianMs: median(harness), p90Ms: quantile(harness, 0.9), byTool: medians(byKind), phases: phaseMedians(stream.events) };
}

/** The status a task ended with, read from the store as it ends. */
async function storedEnd(taskId: string): Promise<string> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const task = await app.system.store.getTask(taskId);
    if (task && isFinished(task.status)) return task.status;
  }
  throw new Error(`task ${taskId} did not end in 120 s`);
}

/**
 * The median of each phase over the tasks' steps but each task's first (which opened the page), a
 * phase a step did not go through counting as 0; `other` is what no phase claimed.
 */
function phaseMedians(...tasks: SessionEvent[][]): Record<string, number> {
  const steps = tasks.flatMap((events) => events.flatMap((e): ProgressStep[] => (e.type === "progress.append" ? [e.step] : [])).slice(1));
  const timings = steps.flatMap((s) => (s.timings ? [s.timings] : []));
  if (timings.length === 0) return {};
  const phases = [...new Set(timings.flatMap((t) => Object.keys(t)))].filter((p) => p !== "total");
  const of = (t: Record<string, number>, phase: string) => t[phase] ?? 0;
  const other = timings.map((t) => t.total - phases.reduce((sum, p) => sum + of(t, p), 0));
  return { ...Object.fromEntries(phases.map((p) => [p, median(timings.map((t) => of(t, p)))])), other: median(other), total: median(timings.map((t) => t.total)) };
}

function medians(byKey: Map<string, number[]>): Record<string, number> {
  return Object.fromEntries([...byKey].map(([key, ms]) => [key, median(ms)]));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function fmt(ms: number): string {
  return ms.toFixed(1);
}
