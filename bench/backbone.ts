// Backbone benchmark: the time from POST /api/chat/send to `task.started` on the SSE stream
// (directly, and through the chat assistant's tool call), to the assistant's first streamed
// words, and the harness time per step (everything between the model's answer and the next model
// request: parsing, acting through the checked hands, settling, capturing, storing, emitting) for
// both drivers, the planner loop and the tool agent. Prints figures; asserts nothing.
import { performance } from "node:perf_hooks";
import { startApp } from "../test/support/app.ts";
import { startFixtureServer } from "../test/support/fixture-server.ts";
import { act, planningText, startScriptedModel, systemText, type RecordedRequest, type Reply } from "../test/support/scripted-model.ts";
import { openStream } from "../test/support/sse.ts";

const SENDS = 20;
const STEPS = Number(process.env.BENCH_STEPS ?? 20);

const model = await startScriptedModel();
const pages = await startFixtureServer();
const app = await startApp({ modelBaseUrl: model.baseUrl });

try {
  // Warm up: the first task launches Chromium.
  model.route((r) => planningText(r).includes("Task: warm-up"), act("done", { answer: "warm" }));
  const warm = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "bench-warm", text: "warm-up" });
  const warmStream = await openStream(app.url, "bench-warm", 0);
  await warmStream.waitForEnd(warm.json.task_id);
  warmStream.close();

  const startLatencies: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const session = `bench-start-${i}`;
    model.route((r) => planningText(r).includes(`Task: start ${i}`), act("done", { answer: "ok" }));
    await app.system.store.ensureSession(session, "bench");
    const stream = await openStream(app.url, session, 0);
    const t0 = performance.now();
    const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: `start ${i}` });
    await stream.waitFor((e) => e.type === "task.started");
    startLatencies.push(performance.now() - t0);
    await stream.waitForEnd(sent.json.task_id);
    stream.close();
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

  const actions: Reply[] = [];
  for (let i = 0; i < STEPS; i++) {
    const kinds = [
      act("click", { x: 200, y: 130 }),
      act("type", { text: "abc" }),
      act("keypress", { keys: ["Backspace"] }),
      act("move", { x: 600, y: 400 }),
      act("scroll", { x: 600, y: 400, scroll_y: 200 }),
    ];
    actions.push(kinds[i % kinds.length]!);
  }
  actions.push(act("done", { answer: "done" }));
  model.route((r) => planningText(r).includes("Task: steps"), ...actions);
  await app.system.store.ensureSession("bench-steps", "bench");
  const stream = await openStream(app.url, "bench-steps", 0);
  const t0 = performance.now();
  const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "bench-steps", text: "steps", start_url: pages.url("form.html") });
  const end = await stream.waitForEnd(sent.json.task_id, 120_000);
  const total = performance.now() - t0;
  stream.close();
  if (end.type !== "task.completed") throw new Error(`the step task ended ${end.type}`);
  const planning = model.requests.filter((r) => planningText(r).includes("Task: steps"));
  const harness = planning.slice(1).map((r, i) => r.at - planning[i]!.answeredAt!);

  const toolCalls: [string, unknown][] = [];
  // The tool agent's own step cap (AGENT_MAX_STEPS, 15) holds the calls and close.
  for (let i = 0; i < 14; i++) {
    const kinds: [string, unknown][] = [
      ["click", { describe: "the Press me button", coordinates: [200, 130] }],
      ["type", { describe: "the Name field", text: "abc", coordinates: [250, 240] }],
      ["keys", { method: "press", value: "Backspace" }],
      ["scrollVision", { direction: "down", percentage: 20 }],
      ["think", { reasoning: "next" }],
    ];
    toolCalls.push(kinds[i % kinds.length]!);
  }
  toolCalls.push(["close", { reasoning: "done", taskComplete: true }]);
  const toolAgent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes("Goal: tool steps");
  model.route(toolAgent, ...toolCalls.map(([name, args]): Reply => ({ chat: { calls: [{ name, arguments: args }] } })));
  await app.system.store.ensureSession("bench-tools", "bench");
  const toolStream = await openStream(app.url, "bench-tools", 0);
  const toolSent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "bench-tools", text: "tool steps", start_url: pages.url("form.html") });
  const toolEnd = await toolStream.waitForEnd(toolSent.json.task_id, 120_000);
  toolStream.close();
  if (toolEnd.type !== "task.completed") throw new Error(`the tool task ended ${JSON.stringify(toolEnd)}`);
  const toolRequests = model.requests.filter(toolAgent);
  const toolHarness = toolRequests.slice(1).map((r, i) => r.at - toolRequests[i]!.answeredAt!);

  console.log("EasyAgentCU backbone benchmark");
  console.log(`  POST /send → task.started (n=${SENDS}): median ${fmt(median(startLatencies))} ms, p90 ${fmt(quantile(startLatencies, 0.9))} ms`);
  console.log(`  POST /send → the assistant's first streamed words, instant model (n=${SENDS}): median ${fmt(median(firstWords))} ms, p90 ${fmt(quantile(firstWords, 0.9))} ms`);
  console.log(`  POST /send → task.started through the assistant's tool call, instant model (n=${SENDS}): median ${fmt(median(delegated))} ms, p90 ${fmt(quantile(delegated, 0.9))} ms`);
  console.log(`  harness time per step (n=${harness.length}): median ${fmt(median(harness))} ms, p90 ${fmt(quantile(harness, 0.9))} ms, max ${fmt(Math.max(...harness))} ms`);
  const byKind = new Map<string, number[]>();
  harness.forEach((ms, i) => {
    const kind = (actions[i] as { answer: { action: { type: string } } }).answer.action.type;
    byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
  });
  console.log(`  by action: ${[...byKind].map(([kind, ms]) => `${kind} ${fmt(median(ms))}`).join(", ")} (median ms)`);
  console.log(`  ${STEPS}-step task end to end with an instant model: ${fmt(total)} ms`);
  console.log(`  tool agent (hybrid), harness time per step (n=${toolHarness.length}): median ${fmt(median(toolHarness))} ms, p90 ${fmt(quantile(toolHarness, 0.9))} ms`);
  const toolByKind = new Map<string, number[]>();
  toolHarness.forEach((ms, i) => toolByKind.set(toolCalls[i]![0], [...(toolByKind.get(toolCalls[i]![0]) ?? []), ms]));
  console.log(`  by tool: ${[...toolByKind].map(([name, ms]) => `${name} ${fmt(median(ms))}`).join(", ")} (median ms)`);
} finally {
  await app.close();
  await Promise.all([model.close(), pages.close()]);
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function fmt(ms: number): string {
  return ms.toFixed(1);
}
