// Replay of a tool-agent task (the act cache of seed 001 §10 and PRODUCT.md 9): its recorded steps
// run again without the model. Each tool says how: a call that acted on no element runs again
// as recorded; one that did is done again by the tool's own replay on its elements, found by
// their recorded locator or XPath where they are now. Only a step whose element is gone asks the
// model (self-heal), through the call the tool names for it. Calls that only look are skipped.
import type { ChatModel } from "../../models/chat/chat-model.ts";
import { hashDistance } from "../../perception/screen-hash.ts";
import { describeStep, type ProgressStep, type ToolCallRecord, type Usage } from "../../protocol/index.ts";
import { everyTool, findTool, parseInput, recordedTool, type AgentTool, type RecordedTarget, type ToolContext } from "../../tools/index.ts";
import type { Driver, Outcome, RunContext } from "../driver.ts";
import { ToolRunner, type Ran } from "../tool-runner.ts";

/** Bits of the 64-bit screen hash that may differ for a screen to count as the recorded one. */
const SAME_SCREEN = 10;
const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };
// Healing may need any tool, whatever the recorded task's mode.
const TOOLS = everyTool();

export class ReplayDriver implements Driver {
  readonly label: string;

  constructor(
    private readonly model: ChatModel,
    /** The steps of the task being replayed, in order. */
    private readonly recording: ProgressStep[],
  ) {
    this.label = `${model.name} (replay)`;
  }

  async drive(run: RunContext): Promise<Outcome> {
    const runner = new ToolRunner(run, this.model);
    await runner.context.web?.waitForLoad(run.config.browser.navigationTimeoutMs);
    runner.look(await run.hands.capture());
    const replayed: number[] = [];
    const healed: number[] = [];
    for (const step of this.recording) {
      const record = step.tool;
      const tool = record ? recordedTool(TOOLS, record.name, record.input) : undefined;
      // A close that failed ends the replay as it ended the task, unless it was held back for a takeover.
      if (!record || !tool || tool.looks || (!record.ok && (!tool.ends || record.error?.code === "TAKEN_OVER"))) continue;
      if (tool.ends) {
        const input = record.input as { reasoning: string; taskComplete: boolean };
        const answer = `${input.reasoning}\n\n${summary(replayed, healed)}`;
        return input.taskComplete ? { status: "completed", answer } : { status: "failed", code: "TASK_INCOMPLETE", message: answer };
      }
      run.budget.assertStepRoom(run.steps.count);
      if (await run.gate.pausePoint()) runner.look(await run.hands.capture());
      const sameScreen = !record.before_hash || hashDistance(record.before_hash, (await runner.screenHash()) ?? record.before_hash) <= SAME_SCREEN;
      let ran = await again(runner, tool, record);
      let how: "replayed" | "healed" = "replayed";
      if (ran === null) {
        const heal = tool.heal?.(record.input);
        const healer = heal ? findTool(TOOLS, heal.name) : undefined;
        if (!heal || !healer) return { status: "failed", code: "INVALID_TARGET", message: `Step ${step.index} (${describeStep(step)}) acted on an element that is gone, and ${record.name} cannot be healed.` };
        ran = await runner.call(healer, heal.input, NO_USAGE);
        how = "healed";
      }
      const url = await run.computer.currentUrl();
      // The step keeps the recorded call's name and input, whichever call did it this time.
      const recorded: Ran = { ...ran, name: record.name, label: how === "replayed" ? ran.label : labelOf(tool, record), input: record.input };
      await runner.record(recorded, stepText(step, how, sameScreen, url), step.thought, how);
      if (!ran.outcome.ok) return { status: "failed", code: ran.outcome.error?.code ?? "ACTION_FAILED", message: `Replaying step ${step.index} (${describeStep(step)}) failed: ${ran.outcome.error?.message}` };
      (how === "healed" ? healed : replayed).push(step.index);
    }
    return { status: "failed", code: "TASK_INCOMPLETE", message: `The recording ends without close. ${summary(replayed, healed)}` };
  }
}

/** Does a recorded call again without the model; null when an element it acted on is gone. */
async function again(runner: ToolRunner, tool: AgentTool, record: ToolCallRecord): Promise<Ran | null> {
  const parsed = parseInput(tool, record.input);
  if (!parsed.ok) return { name: tool.name, label: record.label ?? tool.name, input: record.input, outcome: parsed.outcome, spent: NO_USAGE, beforeHash: null };
  const { input } = parsed;
  if (record.targets.length === 0 || !tool.replay) return runner.call(tool, input, NO_USAGE);
  // Only the browser tools record elements, and they ran on a page. Looked for all at once, without
  // scrolling: a click's element is brought into view as its turn comes.
  const now = await Promise.all(record.targets.map(({ target }) => runner.context.web?.findTarget(target, { scroll: false })));
  if (now.some((target) => !target?.box)) return null;
  const found: RecordedTarget[] = record.targets.map(({ action }, i) => ({ target: now[i]!, action }));
  const replay = tool.replay;
  return runner.call(tool, input, NO_USAGE, (ctx: ToolContext) => replay(input, found, ctx));
}

/** The recorded call's label: as recorded, or as its tool names it (recordings older than labels). */
function labelOf(tool: AgentTool, record: ToolCallRecord): string {
  const parsed = parseInput(tool, record.input);
  return record.label ?? (parsed.ok ? tool.label(parsed.input) : record.name);
}

export function stepText(step: ProgressStep, how: "replayed" | "healed", sameScreen: boolean, url: string | null): string {
  const label = step.text || describeStep(step);
  const text =
    how === "healed"
      ? `${label} (healed: the recorded element was gone, the model found it again)`
      : sameScreen
        ? label
        : `${label} (the screen looked different from the recording)`;
  // A step that went somewhere else than the recorded one says so.
  if (!step.url || !url || samePage(url, step.url)) return text;
  return `${text} (now at ${url}, the recording was at ${step.url})`;
}

function samePage(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return x.origin === y.origin && x.pathname === y.pathname;
}

export function summary(replayed: number[], healed: number[]): string {
  const list = (n: number[]) => (n.length === 1 ? `step ${n[0]}` : `steps ${n.join(", ")}`);
  const parts = [replayed.length > 0 ? `replayed ${list(replayed)} without the model` : "", healed.length > 0 ? `healed ${list(healed)} with the model` : ""].filter(Boolean);
  return parts.length > 0 ? `_Run again: ${parts.join("; ")}._` : "_Run again: nothing to replay._";
}
