// The browser tool agent (seed 001 §2, §7). The page is prepared first (seed 004 §4.5: loaded,
// then screenshot and reader text), and the model starts from that text. Then the chat model
// calls tools — one step each — until it calls close or reaches the step cap. Each call is
// validated against its tool's schema, run through the tool runner (every action through the
// hands, so it is checked), recorded as a step and answered to the model, whose context is
// compressed before every request (agent/tool-context.ts).
import type { ReadabilityResult, Screenshot } from "../../computers/computer.ts";
import { AppError } from "../../core/errors.ts";
import { today } from "../../core/ids.ts";
import type { ChatModel, ChatTurn, ToolCall, ToolSpec } from "../../models/chat/chat-model.ts";
import { preparePage, type PreparedPage } from "../../perception/page-prep.ts";
import type { Attachment, StepEffect, Usage } from "../../protocol/index.ts";
import { findTool, parseInput, toolSet, toolSpecs, type ToolMode, type ToolOutcome } from "../../tools/index.ts";
import type { Driver, Outcome, RunContext } from "../driver.ts";
import { compressContext } from "../tool-context.ts";
import { toolAgentPrompt } from "../tool-prompt.ts";
import { ToolRunner, type Ran } from "../tool-runner.ts";

const READER_TEXT_LIMIT = 4_000;

export class ToolDriver implements Driver {
  readonly label: string;

  constructor(
    private readonly model: ChatModel,
    private readonly mode: ToolMode,
    private readonly attachments: Attachment[],
  ) {
    this.label = `${model.name} (${mode} tools)`;
  }

  async drive(run: RunContext): Promise<Outcome> {
    const { computer, config, signal, budget, steps } = run;
    const { model, mode } = this;
    const task = run.task();
    const runner = new ToolRunner(run, model);
    const { web } = runner.context;
    const { agent } = config;
    const tools = toolSet({ mode, vision: agent.vision, search: agent.searchApiKey !== "" });
    const specs = toolSpecs(tools);
    const system = toolAgentPrompt({ goal: task.text, today: today(), startUrl: task.start_url, mode, tools });
    const prepared = await preparePage(
      {
        loaded: async () => ({ loaded: await web.waitForLoad(config.browser.navigationTimeoutMs) }),
        screenshot: () => computer.screenshot(),
        readability: () => web.readability(run.saveArtifact),
      },
      signal,
    );
    if (prepared.screenshot) runner.look(prepared.screenshot);
    const turns: ChatTurn[] = [{ role: "user", text: [goalText(task.text, task.start_url, this.attachments), pageText(prepared)].join("\n\n") }];
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
        budget.assertStepRoom(steps.count);
        const ran = await runCall(runner, tools, call, usage);
        const step = await runner.record(ran, answer.text.split("\n")[0] ?? "", answer.text);
        usage = { input_tokens: 0, output_tokens: 0 };
        turns.push(toolTurn(call, ran.outcome, step.effect));
        if (ran.outcome.close) {
          const { reasoning, taskComplete } = ran.outcome.close;
          return taskComplete ? { status: "completed", answer: reasoning } : { status: "failed", code: "TASK_INCOMPLETE", message: reasoning };
        }
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

/**
 * What the model reads back: `{ok: true, data}` or `{ok: false, error}` (seed 001 §3.1), plus an
 * image if any; an action the screen did not show any effect of says so, as the planner's
 * history does.
 */
function toolTurn(call: ToolCall, outcome: ToolOutcome, effect: StepEffect | null): ChatTurn {
  const unseen = effect && !effect.changed ? { effect: `nothing changed on the page${effect.note ? ` (${effect.note})` : ""}` } : {};
  const body = outcome.ok ? { ok: true, data: outcome.data ?? null, ...unseen } : { ok: false, error: outcome.error, ...(outcome.data ? { data: outcome.data } : {}), ...unseen };
  const image = outcome.image?.shot;
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: JSON.stringify(body),
    ...(image ? { image: { mimeType: image.mimeType, data: image.data.toString("base64") } } : {}),
  };
}

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

function goalText(goal: string, startUrl: string | null, attachments: Attachment[]): string {
  return [
    `Goal: ${goal}`,
    ...(startUrl ? [`Start page: ${startUrl}`] : []),
    ...(attachments.length > 0 ? [`The person attached: ${attachments.map((a) => a.name).join(", ")}`] : []),
  ].join("\n");
}


/** Validates a call against its tool's schema and runs it; a call that cannot run is answered with why. */
async function runCall(runner: ToolRunner, tools: ReturnType<typeof toolSet>, call: ToolCall, usage: Usage): Promise<Ran> {
  const refuse = (code: string, message: string): Ran => ({ name: call.name, label: call.name, input: call.arguments, outcome: { ok: false, error: { code, message } }, spent: usage, before: null });
  const tool = findTool(tools, call.name);
  if (!tool) return refuse("UNKNOWN_TOOL", `There is no tool ${JSON.stringify(call.name)}; the tools are ${tools.map((t) => t.name).join(", ")}.`);
  let json: unknown;
  try {
    json = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch {
    return refuse("INVALID_ARGUMENTS", `The arguments are not JSON: ${call.arguments.slice(0, 200)}`);
  }
  const parsed = parseInput(tool, json);
  if (!parsed.ok) return { name: call.name, label: call.name, input: json, outcome: parsed.outcome, spent: usage, before: null };
  return runner.call(tool, parsed.input, usage);
}
