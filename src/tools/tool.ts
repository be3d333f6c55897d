// What a tool of the browser tool agent is (seed 001 §3, §12), all in its one file: a name, a
// description, a zod input, what it does over the task's computer (every action through the
// hands, so it is checked), whether it only looks, its label on the timeline, and how a recorded
// call is done again (replay) or redone by the model when its element is gone (heal). A tool
// reports failure in its outcome — the model sees it and may try otherwise — instead of throwing;
// tools/index.ts builds and wraps the set.
import type { z } from "zod";
import type { BrowserPage, Computer, ElementTarget, RefAction } from "../computers/computer.ts";
import { normalizeChord } from "../protocol/keys.ts";
import { AppError } from "../core/errors.ts";
import type { Progress } from "../core/progress.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import type { Deed, DeedTarget, Performed } from "../hands/hands.ts";
import type { Point, Spaces } from "../perception/coordinates.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { Action, AgentMode, Usage } from "../protocol/index.ts";
import type { RefBook } from "./browser-toolset/refs.ts";

export type ToolMode = Exclude<AgentMode, "actions">;

export interface ToolContext {
  computer: Computer;
  /** The page, on a browser; null on a desktop, whose tools have only the screen. */
  web: BrowserPage | null;
  /** The model that resolves natural-language targets (act, fillForm) and extracts data. */
  model: ChatModel;
  /** The call's progress: the task's Stop and the call's deadline, held while the person decides (tools/index.ts). */
  progress: Progress;
  /** The spaces of the screenshot the model saw last: its points are mapped back through them. */
  spaces: Spaces;
  jpegQuality: number;
  /** The largest image the model is sent. */
  imageMax: { width: number; height: number };
  saveArtifact(text: string): Promise<string>;
  /** The text of one of the task's artifacts (a page's long reader text), or null when it has none of that id. */
  readArtifact(id: string): Promise<string | null>;
  /** Counts the tokens of a model call the tool made (act's and fillForm's choice, extract). */
  spend(usage: Usage): void;
  /**
   * Does an action through the hands: judged by the approval policy (a refusal throws DENIED,
   * which the call's outcome reports), pointer-checked where it is a click, then its effect
   * checked; `progress`: the call's, whose end stops the action where it acts.
   */
  perform(deed: Deed, progress?: Progress): Promise<Performed>;
  /**
   * Asks the person to act on the screen and waits for their reply (the task is `awaiting_user`
   * meanwhile; the call's deadline is held).
   */
  askPerson(request: string, progress?: Progress): Promise<string>;
  /** Judges a call of this risk level by the approval policy, as {@link perform} judges an action. */
  approve(risk: Exclude<ToolRisk, "low">, intent: string, progress?: Progress): Promise<void>;
  /** The page view's budget, in tokens. */
  viewTokens: number;
  /** The last page view the model read from ariaTree, which a next view of the same request may be sent as changes to. */
  views: { last: { key: string; text: string } | null };
  /** The browser toolset's element refs (`ref_7`) over the page view's, for the run. */
  refs: RefBook;
  /** Web search, when a provider is configured. */
  search?: (query: string, signal: AbortSignal) => Promise<unknown>;
}

export interface ToolOutcome {
  ok: boolean;
  /** What the model gets back (JSON). */
  data?: unknown;
  /** Text the model reads after the JSON as it is, never escaped into it (a page view); recorded as the output's `view`. */
  text?: string;
  /** Why it failed; `retryable` when trying the same call again may work (seed 004 §5.1: a model that did not answer in time, say). */
  error?: { code: string; message: string; retryable?: boolean };
  /** An image for the model (the screenshot tool), with the spaces it was made in. */
  image?: { shot: Screenshot; spaces: Spaces };
  /** The computer action the call amounts to, for the step record. */
  action?: Action;
  /** Where it acted, in screenshot pixels. */
  at?: Point;
  /** The elements it acted on, as replay finds them again, and what it did to each (null: at a point). */
  targets?: { target: ElementTarget; action: RefAction | null }[];
  /** `close`: the task ends. */
  close?: { reasoning: string; taskComplete: boolean };
}

/** The kinds of computer a tool works on. */
export type ComputerKind = Computer["kind"];

/**
 * Seed 003's risk levels of the desktop tools: a medium or high one is judged by the approval
 * policy (`medium_risk`, `high_risk`) before the call runs, and `keyboard` is medium judged by
 * `keyboard_input` too; the browser tools are judged by what each action does instead.
 */
export type ToolRisk = "low" | "medium" | "keyboard" | "high";

/** A tool as its file declares it; {@link defineTool} fills in what it leaves out. */
export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** The modes that offer it (seed 001 §12.1). */
  modes: readonly ToolMode[];
  /** The computers that offer it; those with a page (a browser) by default. */
  computers?: readonly ComputerKind[];
  risk?: ToolRisk;
  /** Offered only to models that take images. */
  needsVision?: boolean;
  /** It only looks (ariaTree, screenshot, extract…): it changes nothing, so a replay skips it. */
  looks?: boolean;
  /** It ends the task (close): a replay ends where the recording called it. */
  ends?: boolean;
  run(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
  /** The step's label on the timeline; by default the tool's name. */
  label?(input: z.infer<S>): string;
  /**
   * Does a recorded call again without the model, on its elements as they are now (`found`, in
   * the recording's order). Without it, a call that acted on no element simply runs again.
   */
  replay?(input: z.infer<S>, found: RecordedTarget[], ctx: ToolContext): Promise<ToolOutcome>;
  /** The model-backed call that redoes a call whose element is gone; without it, it cannot be healed. */
  heal?(input: z.infer<S>): { name: string; input: unknown };
}

/** An element a recorded call acted on, found again, with what was done to it (null: at a point). */
export interface RecordedTarget {
  target: ElementTarget;
  action: RefAction | null;
}

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly input: S;
  readonly modes: readonly ToolMode[];
  readonly computers: readonly ComputerKind[];
  readonly risk: ToolRisk;
  readonly needsVision: boolean;
  readonly looks: boolean;
  readonly ends: boolean;
  run(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
  label(input: z.infer<S>): string;
  replay: ((input: z.infer<S>, found: RecordedTarget[], ctx: ToolContext) => Promise<ToolOutcome>) | null;
  heal: ((input: z.infer<S>) => { name: string; input: unknown }) | null;
}

export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): AgentTool<S> {
  return {
    ...tool,
    computers: tool.computers ?? ["browser", "extension"],
    risk: tool.risk ?? "low",
    needsVision: tool.needsVision ?? false,
    looks: tool.looks ?? false,
    ends: tool.ends ?? false,
    label: tool.label ?? (() => tool.name),
    replay: tool.replay ?? null,
    heal: tool.heal ?? null,
  };
}

/** A label naming the tool and its main argument: `goto "https://…"`. */
export function labelled(name: string, main: string): string {
  return `${name} ${JSON.stringify(main.length <= 60 ? main : `${main.slice(0, 59)}…`)}`;
}

export const BOTH: readonly ToolMode[] = ["dom", "hybrid"];
export const ANY_COMPUTER: readonly ComputerKind[] = ["browser", "extension", "desktop"];

/** The page a browser tool works on; a desktop has none. */
export function pageOf(ctx: ToolContext): BrowserPage {
  if (!ctx.web) throw new AppError("ACTION_FAILED", "This needs a web page, and this computer is a desktop.");
  return ctx.web;
}

export function failed(code: string, message: string): ToolOutcome {
  return { ok: false, error: { code, message } };
}

/** What an element action amounts to for approvals: a click, Enter pressed in it, typing into it, or none of them. */
function activation(action: RefAction): DeedTarget["how"] | null {
  if (action.kind === "click") return "click";
  if (action.kind === "press") return pressesEnter(action.key.split("+")) ? "enter" : null;
  if (action.kind === "fill") return "type";
  return null;
}

/** A chord whose last key is Enter (any spelling, with any modifiers). */
export function pressesEnter(chord: string[]): boolean {
  const last = normalizeChord(chord.map((k) => k.trim()).filter(Boolean)).at(-1) ?? "";
  return last === "Enter" || last === "NumpadEnter";
}

/** Text typed with a line break in it presses Enter. */
export function typesEnter(text: string): boolean {
  return /[\r\n]/.test(text);
}

/** The outcome of an action the hands could not aim: nothing was done. */
export function notPlaced(performed: Extract<Performed, { kind: "unverified" }>, what: string): ToolOutcome {
  const looks = performed.verification.attempts.length;
  return failed("NOT_CLICKED", `The pointer could not be placed on ${what} (${looks} ${looks === 1 ? "check" : "checks"}), so nothing was clicked; take a new look and try again.`);
}

export interface ClickOptions {
  /** The element meant, when known: the pointer is checked on it. */
  element?: ElementTarget | null;
  /** The click only puts the focus where typing follows; the typing shows its effect. */
  focus?: boolean;
  /** The page may have moved since the screen was last taken (scrolled into view). */
  fresh?: boolean;
}

/** A click at a point through the hands, checked on the element meant when it is known. */
export async function clickAt(ctx: ToolContext, at: Point, intent: string, options: ClickOptions = {}): Promise<Performed> {
  const { element = null, focus = false, fresh = false } = options;
  const action = { type: "click" as const, args: { x: at.x, y: at.y, button: "left" as const }, intent, requires_verification: true };
  return ctx.perform({ kind: "action", action, intent, element, fresh, focus });
}

/**
 * Acts on an element: a click goes through the hands at the element's centre, checked by
 * hit-testing that element; filling, pressing, selecting, ticking and hovering go through the
 * page, and their effect is checked too. The hands judge each by the approval policy first.
 */
export async function actOnElement(
  ctx: ToolContext,
  element: { ref: string } | { target: ElementTarget },
  action: RefAction,
  intent: string,
): Promise<{ ok: true; target: ElementTarget } | { ok: false; outcome: ToolOutcome }> {
  const located = "ref" in element ? await pageOf(ctx).locate(element.ref) : { target: element.target, coveredBy: null };
  const { target } = located;
  if (action.kind === "click") {
    const at = centerOf(target);
    if (!at) return { ok: false, outcome: failed("INVALID_TARGET", `${intent}: the element has no box on the page.`) };
    if (located.coveredBy) return { ok: false, outcome: failed("NOT_CLICKED", `${intent}: ${located.coveredBy} covers it, so nothing was clicked; close or scroll away what covers it first.`) };
    // Finding the element may have scrolled the page: its effect is measured from the screen as it is now.
    const performed = await clickAt(ctx, at, intent, { element: target, fresh: true });
    return performed.kind === "acted" ? { ok: true, target } : { ok: false, outcome: notPlaced(performed, intent) };
  }
  const run = "ref" in element ? () => pageOf(ctx).actOnRef(element.ref, action).then(() => undefined) : () => pageOf(ctx).actOnTarget(target, action);
  const how = activation(action);
  const on = how ? { element, how, ...(action.kind === "fill" ? { text: action.value } : {}) } : null;
  await ctx.perform({ kind: "page", run, intent, ...(on ? { on } : {}) });
  return { ok: true, target };
}

export function centerOf(target: ElementTarget): Point | undefined {
  const box = target.box;
  return box ? { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) } : undefined;
}
