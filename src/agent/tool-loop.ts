// The browser tool agent's loop (seed 001 §2, §7). The page is prepared first (seed 004 §4.5:
// loaded, then screenshot and reader text), and the model starts from that text. Then the chat
// model calls tools — one step each — until it calls close or reaches the step cap. Each call is
// validated and run by tools/index.ts, recorded as a step (agent/tool-runner.ts) and answered to
// the model, whose context is compressed before every request (agent/tool-context.ts).
import type { ReadabilityResult, Screenshot } from "../computers/computer.ts";
import { AppError } from "../core/errors.ts";
import { today } from "../core/ids.ts";
import type { ChatModel, ChatTurn, ToolCall, ToolSpec } from "../models/chat/chat-model.ts";
import { preparePage, type PreparedPage } from "../perception/page-prep.ts";
import type { Attachment, Usage } from "../protocol/index.ts";
import { toolSet, toolSpecs, type ToolMode, type ToolOutcome } from "../tools/index.ts";
import { compressContext } from "./tool-context.ts";
import { toolAgentPrompt } from "./tool-prompt.ts";
import { ToolRunner, type ToolRunnerOptions, type ToolStep } from "./tool-runner.ts";

export type LoopOutcome = { status: "completed"; answer: string } | { status: "failed"; code: string; message: string };

export interface ToolLoopOptions extends ToolRunnerOptions {
  goal: string;
  startUrl: string | null;
  attachments: Attachment[];
  mode: ToolMode;
  maxSteps: number;
  record(step: ToolStep): Promise<void>;
}

export async function runToolLoop(options: ToolLoopOptions): Promise<LoopOutcome> {
  const { computer, model, config, signal } = options;
  const runner = new ToolRunner(options);
  const { web } = runner.context;
  const { agent } = config;
  const tools = toolSet({ mode: options.mode, vision: agent.vision, search: agent.searchApiKey !== "" });
  const specs = toolSpecs(tools);
  const system = toolAgentPrompt({ goal: options.goal, today: today(), startUrl: options.startUrl, mode: options.mode, tools });
  const prepared = await preparePage(
    {
      loaded: async () => ({ loaded: await web.waitForLoad(config.browser.navigationTimeoutMs) }),
      screenshot: () => computer.screenshot(),
      readability: () => web.readability(options.saveArtifact),
    },
    signal,
  );
  if (prepared.screenshot) runner.look(prepared.screenshot);
  const turns: ChatTurn[] = [{ role: "user", text: [goalText(options), pageText(prepared)].join("\n\n") }];
  let steps = 0;
  let nudges = 0;
  for (;;) {
    const answer = await ask(model, system, compressContext(turns), specs, signal);
    // An empty answer is not a turn the APIs take back (Anthropic refuses empty content).
    if (answer.text || answer.calls.length > 0) turns.push({ role: "assistant", text: answer.text, toolCalls: answer.calls });
    if (answer.calls.length === 0) {
      if (nudges++ >= config.model.repairRetries) {
        throw new AppError("PLANNER_INVALID_OUTPUT", "The model stopped calling tools without calling close.");
      }
      turns.push({ role: "user", text: "Go on with a tool call. When the goal is reached, or cannot be reached, call close." });
      continue;
    }
    let usage = answer.usage;
    for (const call of answer.calls) {
      if (steps >= options.maxSteps) throw new AppError("STEP_LIMIT", `The task reached its limit of ${options.maxSteps} steps.`);
      steps++;
      const { outcome, spent } = await runner.call(tools, call.name, call.arguments, usage);
      await options.record(await runner.step(call.name, call.arguments, outcome, answer.text.split("\n")[0] ?? "", answer.text, spent));
      usage = { input_tokens: 0, output_tokens: 0 };
      turns.push(toolTurn(call, outcome));
      if (outcome.close) {
        const { reasoning, taskComplete } = outcome.close;
        return taskComplete ? { status: "completed", answer: reasoning } : { status: "failed", code: "TASK_INCOMPLETE", message: reasoning };
      }
    }
  }
}

async function ask(model: ChatModel, system: string, turns: ChatTurn[], tools: ToolSpec[], signal: AbortSignal) {
  let text = "";
  const calls: ToolCall[] = [];
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  for await (const event of model.stream({ system, turns, tools }, signal)) {
    if (event.type === "delta") text += event.text;
    else if (event.type === "tool_call") calls.push(event.call);
    else usage = event.usage;
  }
  return { text: text.trim(), calls, usage };
}

/** What the model reads back: `{ok: true, data}` or `{ok: false, error}` (seed 001 §3.1), plus an image if any. */
function toolTurn(call: ToolCall, outcome: ToolOutcome): ChatTurn {
  const body = outcome.ok ? { ok: true, data: outcome.data ?? null } : { ok: false, error: outcome.error, ...(outcome.data ? { data: outcome.data } : {}) };
  const image = outcome.image?.shot;
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: JSON.stringify(body),
    ...(image ? { image: { mimeType: image.mimeType, data: image.data.toString("base64") } } : {}),
  };
}

const READER_TEXT_LIMIT = 4_000;

/** What page preparation found, for the model's first look: the reader text and any warnings. */
function pageText({ readability, warnings }: PreparedPage<Screenshot, ReadabilityResult>): string {
  const lines = warnings.map((w) => `Note: ${w}.`);
  if (readability?.text?.trim()) {
    const text = readability.text.length > READER_TEXT_LIMIT ? `${readability.text.slice(0, READER_TEXT_LIMIT)}… [cut]` : readability.text;
    lines.unshift(`Reader view of the page${readability.title ? ` "${readability.title}"` : ""}:\n${text}`);
  } else if (readability?.artifactId) {
    lines.unshift(`The page's text is long (${readability.contentLengthBytes} bytes); use ariaTree or extract to read it.`);
  }
  return lines.join("\n");
}

function goalText(options: ToolLoopOptions): string {
  return [
    `Goal: ${options.goal}`,
    ...(options.startUrl ? [`Start page: ${options.startUrl}`] : []),
    ...(options.attachments.length > 0 ? [`The person attached: ${options.attachments.map((a) => a.name).join(", ")}`] : []),
  ].join("\n");
}

