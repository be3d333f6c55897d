// Builds the tool agent's tool set (seed 001 §12.1): filtered by computer (a browser gets the page
// tools, a desktop seed 003's mouse, keyboard and screen tools), by mode (`dom` drops the
// coordinate tools, `hybrid` drops fillForm and the DOM scroll; a desktop has no DOM, so its set
// is the same in both), by whether the model takes images, and by whether a search provider is
// configured. Runs a call: bounds its time and turns any failure into
// an outcome the model reads.
import { AppError, StopRequested } from "../core/errors.ts";
import { firstIssue } from "../models/chat/conversation.ts";
import { act } from "./act.ts";
import { ariaTree } from "./aria-tree.ts";
import { askUser } from "./ask-user.ts";
import { clickAndHold } from "./click-and-hold.ts";
import { click } from "./click.ts";
import { close } from "./close.ts";
import { computerUse } from "./computer-use.ts";
import { dragAndDrop } from "./drag-and-drop.ts";
import { extract } from "./extract.ts";
import { fillFormVision } from "./fill-form-vision.ts";
import { fillForm } from "./fill-form.ts";
import { goto } from "./goto.ts";
import { keyboardAction } from "./keyboard-action.ts";
import { keys } from "./keys.ts";
import { mouseAction } from "./mouse-action.ts";
import { navback } from "./navback.ts";
import { pageTool } from "./page-tool.ts";
import { readArtifact } from "./read-artifact.ts";
import { screenInfo } from "./screen-info.ts";
import { screenshot } from "./screenshot.ts";
import { scrollVision } from "./scroll-vision.ts";
import { scroll } from "./scroll.ts";
import { search } from "./search.ts";
import { closeTab, newTab, switchTab, tabs } from "./tabs.ts";
import { think } from "./think.ts";
import type { AgentTool, ComputerKind, ToolContext, ToolMode, ToolOutcome } from "./tool.ts";
import { type } from "./type.ts";
import { upload } from "./upload.ts";
import { browserMembers } from "./browser-toolset/index.ts";
import { wait } from "./wait.ts";

export type { AgentTool, RecordedTarget, ToolContext, ToolMode, ToolOutcome, ToolRisk } from "./tool.ts";
export { webSearch } from "./search.ts";
export { pageToolLines, pageToolsNote } from "./page-tool.ts";
export { RefBook, TAB_ID } from "./browser-toolset/index.ts";

const ALL: AgentTool[] = [
  act,
  ariaTree,
  askUser,
  click,
  clickAndHold,
  close,
  closeTab,
  computerUse,
  dragAndDrop,
  extract,
  fillForm,
  fillFormVision,
  goto,
  keyboardAction,
  keys,
  mouseAction,
  navback,
  newTab,
  readArtifact,
  screenInfo,
  screenshot,
  scroll,
  scrollVision,
  search,
  switchTab,
  tabs,
  think,
  type,
  upload,
  wait,
] as AgentTool[];

export interface ToolSetOptions {
  mode: ToolMode;
  computer: ComputerKind;
  vision: boolean;
  search: boolean;
}

export function toolSet({ mode, computer, vision, search: withSearch }: ToolSetOptions): AgentTool[] {
  return ALL.filter(
    (tool) => tool.computers.includes(computer) && (computer === "desktop" || tool.modes.includes(mode)) && (vision || !tool.needsVision) && (withSearch || tool.name !== "search"),
  );
}

export { browserMembers };

/**
 * Offered besides the set once the task's page declares tools of its own (agent/page-tool-news.ts):
 * most pages declare none, and a tool that could only fail would cost every request its words.
 */
export const PAGE_TOOL = pageTool as AgentTool;

/** Every tool, for a replay, which may need any of them: ours, then the browser toolset's members. */
export function everyTool(): AgentTool[] {
  return [...ALL, PAGE_TOOL, ...browserMembers({ vision: true, computer: "browser" })];
}

/** The tool of this name in the set, if any. */
export function findTool(tools: AgentTool[], name: string): AgentTool | undefined {
  return tools.find((t) => t.name === name);
}

/**
 * The tool a recorded call was made with: of the tools of its name (ours and a browser toolset
 * member may share one, `wait`, `type`), the one whose schema takes its input.
 */
export function recordedTool(tools: AgentTool[], name: string, input: unknown): AgentTool | undefined {
  const named = tools.filter((t) => t.name === name);
  return named.find((t) => t.input.safeParse(input).success) ?? named[0];
}

/** A recorded or healing call's input, read through the tool's own schema. */
export function parseInput(tool: AgentTool, input: unknown): { ok: true; input: unknown } | { ok: false; outcome: ToolOutcome } {
  const parsed = tool.input.safeParse(input);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, outcome: { ok: false, error: { code: "INVALID_ARGUMENTS", message: firstIssue(parsed.error, "arguments") } } };
}

/**
 * Failures that no call can get past: the computer is gone (its browser crashed, the extension left
 * for good). They end the task, which may be tried again, rather than go back to the model.
 */
const ENDS_TASK: ReadonlySet<string> = new Set(["BROWSER_CRASHED", "PLUGIN_OFFLINE"]);

/**
 * Runs one validated call, or the replay of one; never throws but for Stop and a computer that is
 * gone (ENDS_TASK). Its deadline pauses while the person decides an approval. The call is awaited,
 * never raced: past its deadline, or on Stop, its progress ends and what it does stops where it
 * acts, so that when the call returns nothing of it is still under way on the screen.
 */
export async function runTool(name: string, work: (ctx: ToolContext) => Promise<ToolOutcome>, ctx: ToolContext, timeoutMs: number): Promise<ToolOutcome> {
  const progress = ctx.progress.within(timeoutMs, () => {
    const doing = progress.logged.at(-1);
    return new AppError("ACTION_FAILED", `${name} took longer than ${timeoutMs / 1000} s${doing ? `, and was stopped during: ${doing}` : ""}.`);
  });
  try {
    const bounded: ToolContext = {
      ...ctx,
      progress,
      perform: (deed) => ctx.perform(deed, progress),
      approve: (risk, intent) => ctx.approve(risk, intent, progress),
      askPerson: (request) => ctx.askPerson(request, progress),
    };
    const outcome = await work(bounded);
    // A call that only looked may not have noticed its end: it is told as the model would have been.
    progress.check();
    return outcome;
  } catch (error) {
    if (ctx.progress.signal.aborted || error instanceof StopRequested) throw ctx.progress.signal.reason ?? error;
    if (error instanceof AppError && ENDS_TASK.has(error.code)) throw error;
    const code = error instanceof AppError ? error.code : "ACTION_FAILED";
    const retryable = error instanceof AppError && error.retryable ? { retryable: true } : {};
    return { ok: false, error: { code, message: error instanceof Error ? error.message : String(error), ...retryable } };
  } finally {
    progress.end();
  }
}
