// What the tool agent and its replay share: the tools' context on the task's computer, running
// one call (its approvals filtered by APPROVALS, the tokens its own model calls spent counted),
// and the step a call makes — the tool record, the screen after it and the hash of the one before.
import type { Computer, Risk, Screenshot } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import { fitWithin, type Point, type Spaces } from "../perception/coordinates.ts";
import { screenHash } from "../perception/screen-hash.ts";
import type { Action, ToolCallRecord, Usage } from "../protocol/index.ts";
import { braveSearch } from "../tools/brave-search.ts";
import { runTool, type AgentTool, type ToolContext, type ToolOutcome } from "../tools/index.ts";

export interface ToolStep {
  text: string;
  thought: string;
  tool: ToolCallRecord;
  action: Action | null;
  /** Where it acted, in screenshot pixels. */
  at: Point | null;
  /** The screen after the call. */
  shot: Screenshot;
  url: string | null;
  usage: Usage;
}

export interface ToolRunnerOptions {
  computer: Computer;
  model: ChatModel;
  config: Config;
  signal: AbortSignal;
  /** The screen before the first call. */
  firstShot: Screenshot;
  saveArtifact(text: string): Promise<string>;
  /** Asks the person to approve a tool call with these risks. */
  approve(tool: { name: string; input: unknown }, risks: Risk[]): Promise<boolean>;
}

export class ToolRunner {
  readonly context: Omit<ToolContext, "approve" | "spend">;
  /** The screen as the last step left it. */
  screen: Screenshot;
  private readonly timeoutMs: number;

  constructor(private readonly options: ToolRunnerOptions) {
    const { computer, model, config, signal } = options;
    const web = computer.web;
    if (!web) throw new AppError("ACTION_FAILED", "The tool agent needs a browser; this computer has no web page.");
    const { agent } = config;
    const imageMax = { width: config.model.imageMaxWidth, height: config.model.imageMaxHeight };
    this.context = {
      computer,
      web,
      model,
      signal,
      spaces: spacesOf(options.firstShot, computer, imageMax),
      jpegQuality: config.browser.jpegQuality,
      imageMax,
      saveArtifact: options.saveArtifact,
      ...(agent.searchApiKey ? { search: braveSearch(agent.searchApiKey, agent.searchBaseUrl, config.model.timeoutMs) } : {}),
    };
    this.screen = options.firstShot;
    this.timeoutMs = Math.max(60_000, config.model.timeoutMs + 30_000);
  }

  /** The screen the model's points refer to from now on. */
  look(shot: Screenshot): void {
    this.screen = shot;
    this.context.spaces = spacesOf(shot, this.options.computer, this.context.imageMax);
  }

  /** Runs one call as written (raw JSON arguments); `usage` is what asking for it cost. */
  async call(tools: AgentTool[], name: string, args: string, usage: Usage): Promise<{ outcome: ToolOutcome; spent: Usage }> {
    const spent = { ...usage };
    const spend = (u: Usage) => {
      spent.input_tokens += u.input_tokens;
      spent.output_tokens += u.output_tokens;
    };
    const input = parsedArguments(args);
    const approve = (risks: Risk[]) => this.ask(name, input, risks);
    const outcome = await runTool(tools, name, args, { ...this.context, approve, spend }, this.timeoutMs);
    if (outcome.image) this.context.spaces = outcome.image.spaces;
    return { outcome, spent };
  }

  /** Asks the person about the risks that APPROVALS names; true when there are none. */
  ask(name: string, input: unknown, risks: Risk[]): Promise<boolean> {
    const needed = risks.filter((risk) => this.options.config.agent.approvals.includes(risk.kind));
    return needed.length === 0 ? Promise.resolve(true) : this.options.approve({ name, input }, needed);
  }

  /** The hash of the screen as the last step left it. */
  screenHash(): Promise<string> {
    return screenHash(this.screen);
  }

  /** The step a call made: what it did, the screen after it, the hash of the screen before. */
  async step(name: string, args: string, outcome: ToolOutcome, text: string, thought: string, usage: Usage, replay: ToolCallRecord["replay"] = null): Promise<ToolStep> {
    const { computer } = this.options;
    const before = await screenHash(this.screen);
    const tool: ToolCallRecord = {
      name,
      input: parsedArguments(args),
      ok: outcome.ok,
      output: outcome.ok ? (outcome.data ?? null) : null,
      error: outcome.error ?? null,
      targets: outcome.targets ?? [],
      before_hash: before,
      replay,
    };
    // What an acting call started (a navigation, a request) settles before the screen is taken.
    if (outcome.action || (outcome.targets?.length ?? 0) > 0) await computer.settle();
    const shot = await computer.screenshot();
    this.screen = shot;
    return { text, thought, tool, action: outcome.action ?? null, at: outcome.at ?? null, shot, url: await computer.currentUrl(), usage };
  }
}

function spacesOf(shot: Screenshot, computer: Computer, max: { width: number; height: number }): Spaces {
  const screenshot = { width: shot.width, height: shot.height };
  return { model: fitWithin(screenshot, max), screenshot, logical: computer.logicalSize };
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
