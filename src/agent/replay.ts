// Replay of a tool-agent task (the act cache of seed 001 §10 and PRODUCT.md 9): its recorded steps
// run again without the model — each element found by its recorded locator or XPath, each action
// done as recorded, each step checked against the address it reached before. Only a step whose
// element is gone asks the model (self-heal), through the same tool with the same words. Looking
// steps (ariaTree, screenshot, think, extract) are not repeated: they changed nothing.
import type { ElementTarget, Risk } from "../computers/computer.ts";
import { hashDistance } from "../perception/screen-hash.ts";
import { describeStep, type ProgressStep, type ToolCallRecord, type Usage } from "../protocol/index.ts";
import { toolSet, type AgentTool, type ToolOutcome } from "../tools/index.ts";
import { centerOf } from "../tools/points.ts";
import { activation, failed } from "../tools/tool.ts";
import type { LoopOutcome } from "./tool-loop.ts";
import { ToolRunner, type ToolRunnerOptions, type ToolStep } from "./tool-runner.ts";

const LOOKING = new Set(["ariaTree", "screenshot", "think", "extract"]);
/** Bits of the 64-bit screen hash that may differ for a screen to count as the recorded one. */
const SAME_SCREEN = 10;
const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

export interface ReplayOptions extends ToolRunnerOptions {
  /** The steps of the task being replayed, in order. */
  recording: ProgressStep[];
  record(step: ToolStep): Promise<void>;
}

export async function runReplay(options: ReplayOptions): Promise<LoopOutcome> {
  const runner = new ToolRunner(options);
  await runner.context.web.waitForLoad(options.config.browser.navigationTimeoutMs);
  runner.look(await options.computer.screenshot());
  // Healing may need any tool, whatever the recorded task's mode.
  const tools = [...toolSet({ mode: "dom", vision: true, search: false }), ...toolSet({ mode: "hybrid", vision: true, search: false })];
  const replayed: number[] = [];
  const healed: number[] = [];
  for (const step of options.recording) {
    const tool = step.tool;
    if (!tool || LOOKING.has(tool.name) || (!tool.ok && tool.name !== "close")) continue;
    if (tool.name === "close") {
      const input = tool.input as { reasoning: string; taskComplete: boolean };
      const answer = `${input.reasoning}\n\n${summary(replayed, healed)}`;
      return input.taskComplete ? { status: "completed", answer } : { status: "failed", code: "TASK_INCOMPLETE", message: answer };
    }
    const args = JSON.stringify(tool.input);
    const sameScreen = !tool.before_hash || hashDistance(tool.before_hash, await runner.screenHash()) <= SAME_SCREEN;
    let outcome = await again(runner, tools, tool);
    let how: "replayed" | "healed" = "replayed";
    let spent = NO_USAGE;
    if (outcome === null) {
      const heal = healingCall(tool);
      if (!heal) return { status: "failed", code: "INVALID_TARGET", message: `Step ${step.index} (${describeStep(step)}) acted on an element that is gone, and ${tool.name} cannot be healed.` };
      ({ outcome, spent } = await runner.call(tools, heal.name, heal.args, NO_USAGE));
      how = "healed";
    }
    const done = await runner.step(tool.name, args, outcome, stepText(step, how, sameScreen), step.thought, spent, how);
    if (!outcome.ok) return { status: "failed", code: outcome.error?.code ?? "ACTION_FAILED", message: `Replaying step ${step.index} (${describeStep(step)}) failed: ${outcome.error?.message}` };
    (how === "healed" ? healed : replayed).push(step.index);
    await options.record(verified(done, step));
  }
  return { status: "failed", code: "TASK_INCOMPLETE", message: `The recording ends without close. ${summary(replayed, healed)}` };
}

/** Does a recorded step again without the model; null when an element it acted on is gone. */
async function again(runner: ToolRunner, tools: AgentTool[], tool: ToolCallRecord): Promise<ToolOutcome | null> {
  const { web, computer } = runner.context;
  const targets = tool.targets;
  // Calls that acted on no element (goto, keys, navback, wait, scroll…) simply run again.
  if (targets.length === 0) {
    return (await runner.call(tools, tool.name, JSON.stringify(tool.input), NO_USAGE)).outcome;
  }
  const found: ElementTarget[] = [];
  for (const { target } of targets) {
    const now = await web.findTarget(target);
    if (!now?.box) return null;
    found.push(now);
  }
  const input = tool.input as Record<string, unknown>;
  const approve = (risks: Risk[]) => runner.ask(tool.name, tool.input, risks);
  for (const [i, { action }] of targets.entries()) {
    const target = found[i]!;
    const how = activation(action);
    if (how && !(await approve(await web.risksOf({ target }, how)))) {
      return failed("DENIED", `The person did not allow this step again.`);
    }
    if (action) {
      await web.actOnTarget(target, action);
      continue;
    }
    const at = centerOf(target)!;
    switch (tool.name) {
      case "click":
        await computer.click(at.x, at.y);
        break;
      case "type":
        await computer.click(at.x, at.y);
        await computer.type(String(input.text ?? ""));
        break;
      case "clickAndHold":
        await web.holdAt(at.x, at.y, Number(input.duration ?? 500));
        break;
      case "fillFormVision": {
        const fields = input.fields as { value: string }[];
        await computer.click(at.x, at.y);
        await computer.keypress(["Control", "a"]);
        await computer.type(fields[i]?.value ?? "");
        break;
      }
      case "dragAndDrop":
        if (i === 1) await computer.drag(centerOf(found[0]!)!, at);
        break;
    }
  }
  return { ok: true, data: { success: true, replayed: true }, targets: found.map((target, i) => ({ target, action: targets[i]!.action })), at: centerOf(found[0]!)! };
}

/** The model-backed call that redoes a step whose element is gone: the same tool, or act with its words. */
function healingCall(tool: ToolCallRecord): { name: string; args: string } | null {
  const input = tool.input as Record<string, unknown>;
  switch (tool.name) {
    case "act":
    case "fillForm":
      return { name: tool.name, args: JSON.stringify(tool.input) };
    case "click":
      return { name: "act", args: JSON.stringify({ action: `click ${String(input.describe)}` }) };
    case "type":
      return { name: "act", args: JSON.stringify({ action: `type ${JSON.stringify(input.text)} into ${String(input.describe)}` }) };
    default:
      return null;
  }
}

/** A step that went somewhere else than the recorded one says so. */
function verified(done: ToolStep, original: ProgressStep): ToolStep {
  if (!original.url || !done.url || samePage(done.url, original.url)) return done;
  return { ...done, text: `${done.text} (now at ${done.url}, the recording was at ${original.url})` };
}

function samePage(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return x.origin === y.origin && x.pathname === y.pathname;
}

function stepText(step: ProgressStep, how: "replayed" | "healed", sameScreen: boolean): string {
  const label = step.text || describeStep(step);
  if (how === "healed") return `${label} (healed: the recorded element was gone, the model found it again)`;
  return sameScreen ? label : `${label} (the screen looked different from the recording)`;
}

function summary(replayed: number[], healed: number[]): string {
  const list = (n: number[]) => (n.length === 1 ? `step ${n[0]}` : `steps ${n.join(", ")}`);
  const parts = [replayed.length > 0 ? `replayed ${list(replayed)} without the model` : "", healed.length > 0 ? `healed ${list(healed)} with the model` : ""].filter(Boolean);
  return parts.length > 0 ? `_Run again: ${parts.join("; ")}._` : "_Run again: nothing to replay._";
}
