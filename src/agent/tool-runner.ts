// What the tool agent and its replay share: the tools' context on the task's computer (every
// action through the task's hands, which judge it by the approval policy), running one call under
// its deadline (held while the person decides, the tokens its own model calls spent counted), and recording the step a call
// made — the tool record with its label, the checks its actions passed, the screen after it and
// the hash of the one before.
import type { ChatModel } from "../models/chat/chat-model.ts";
import { fitWithin, type Spaces } from "../perception/coordinates.ts";
import { screenHash } from "../perception/screen-hash.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { ToolCallRecord, Usage } from "../protocol/index.ts";
import type { Risk } from "../core/approval-policy.ts";
import { RefBook, runTool, webSearch, type AgentTool, type ToolContext, type ToolOutcome, type ToolRisk } from "../tools/index.ts";
import type { RunContext } from "./driver.ts";

/** Seed 003's risk levels as the approval policy's classes; a low-risk call is not judged as a whole. */
const RISKS: Record<Exclude<ToolRisk, "low">, Risk[]> = {
  medium: [{ kind: "medium_risk", message: "controls the desktop's mouse" }],
  keyboard: [
    { kind: "medium_risk", message: "controls the desktop's keyboard" },
    { kind: "keyboard_input", message: "types or presses keys on the desktop" },
  ],
  high: [{ kind: "high_risk", message: "hands the desktop to the agent's automated loop" }],
};

/** One call as it ran: what came out, what it cost, and the hash of the screen before it. */
export interface Ran {
  name: string;
  label: string;
  input: unknown;
  outcome: ToolOutcome;
  spent: Usage;
  beforeHash: Promise<string> | null;
}

export class ToolRunner {
  readonly context: Omit<ToolContext, "spend">;
  private readonly timeoutMs: number;

  constructor(
    private readonly run: RunContext,
    model: ChatModel,
  ) {
    const { computer, config, progress, hands } = run;
    const web = computer.web ?? null;
    const imageMax = { width: config.model.imageMaxWidth, height: config.model.imageMaxHeight };
    const search = webSearch(config);
    this.context = {
      computer,
      web,
      model,
      progress,
      spaces: spacesOf(hands.screen, run, imageMax),
      jpegQuality: config.browser.jpegQuality,
      imageMax,
      viewTokens: config.agent.viewTokens,
      views: { last: null },
      refs: new RefBook(),
      saveArtifact: run.saveArtifact,
      readArtifact: run.readArtifact,
      // The tool agent's model does not look at the pointer: a click is checked by the hit test.
      perform: (deed, progress) => hands.perform(deed, { look: null, requested: true, ...(progress ? { progress } : {}) }),
      approve: (risk, intent, progress) => hands.approveCall(RISKS[risk], intent, progress),
      askPerson: (request, progress) => (progress ? progress.hold(() => run.gate.askUser(request)) : run.gate.askUser(request)),
      ...(search ? { search } : {}),
    };
    this.timeoutMs = config.agent.toolTimeoutMs ?? Math.max(60_000, config.model.timeoutMs + 30_000);
  }

  /** The screen the model's points refer to from now on. */
  look(shot: Screenshot): void {
    this.run.hands.saw(shot);
    this.context.spaces = spacesOf(shot, this.run, this.context.imageMax);
  }

  /**
   * Runs one validated call (`work`: a replay of it instead of its run); `usage` is what asking
   * for it cost.
   */
  async call(tool: AgentTool, input: unknown, usage: Usage, work = (ctx: ToolContext) => tool.run(input, ctx)): Promise<Ran> {
    const spent = { ...usage };
    const spend = (u: Usage) => {
      spent.input_tokens += u.input_tokens;
      spent.output_tokens += u.output_tokens;
    };
    const label = tool.label(input);
    const before = this.run.hands.screen;
    // Hashed while the call runs: the image work is off the loop's thread.
    const beforeHash = before ? screenHash(before) : null;
    beforeHash?.catch(() => undefined);
    const { risk } = tool;
    const judged = risk === "low" ? work : async (ctx: ToolContext) => (await ctx.approve(risk, label), work(ctx));
    const ran = await this.run.progress.phase("action", () => runTool(tool.name, judged, { ...this.context, spend }, this.timeoutMs));
    // What the model reads back never holds a secret's value (a field's value in the ARIA tree, extracted data).
    const { secrets } = this.run;
    const outcome = {
      ...ran,
      data: secrets.concealAll(ran.data),
      ...(ran.text !== undefined ? { text: secrets.concealAll(ran.text) } : {}),
      ...(ran.error ? { error: secrets.concealAll(ran.error) } : {}),
    };
    if (outcome.image) this.context.spaces = outcome.image.spaces;
    return { name: tool.name, label, input, outcome, spent, beforeHash };
  }

  /** The hash of the screen as the last step left it. */
  async screenHash(): Promise<string | null> {
    const screen = this.run.hands.screen;
    return screen ? screenHash(screen) : null;
  }

  /**
   * Records the step a call made: what it did, the checks of its actions, the screen after it;
   * `planner`: who asked for it, where not the task's model (a router's fallback).
   */
  async record(ran: Ran, text: string, thought: string, replay: ToolCallRecord["replay"] = null, planner = this.run.task().model) {
    const { hands, computer, steps, progress } = this.run;
    const { outcome } = ran;
    const checks = hands.takeChecks();
    const tool: ToolCallRecord = {
      name: ran.name,
      label: ran.label,
      input: ran.input,
      ok: outcome.ok,
      output: !outcome.ok ? null : outcome.text !== undefined ? { ...(outcome.data as object), view: outcome.text } : (outcome.data ?? null),
      error: outcome.error ?? null,
      targets: outcome.targets ?? [],
      before_hash: ran.beforeHash ? await progress.phase("encode", () => ran.beforeHash!) : null,
      replay,
    };
    const shot = checks?.after ?? (await hands.capture());
    const usage = {
      input_tokens: ran.spent.input_tokens + (checks?.usage.input_tokens ?? 0),
      output_tokens: ran.spent.output_tokens + (checks?.usage.output_tokens ?? 0),
    };
    return steps.commit(shot, {
      text,
      thought,
      action: outcome.action ?? null,
      tool,
      cursor_x: outcome.at?.x ?? null,
      cursor_y: outcome.at?.y ?? null,
      url: await computer.currentUrl(),
      effect: checks?.effect ?? null,
      verification: checks?.verification ?? null,
      planner,
      usage,
    });
  }
}

function spacesOf(shot: Screenshot | null, run: RunContext, max: { width: number; height: number }): Spaces {
  const { logicalSize } = run.computer;
  const screenshot = shot ? { width: shot.width, height: shot.height } : logicalSize;
  return { model: fitWithin(screenshot, max), screenshot, logical: logicalSize };
}
