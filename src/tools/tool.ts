// What a tool of the browser tool agent is (seed 001 §3, §12): a name, a description, a zod input
// and a run function over the task's computer. A tool reports failure in its outcome — the model
// sees it and may try otherwise — instead of throwing; tools/index.ts builds and wraps the set.
import type { z } from "zod";
import type { BrowserPage, Computer, ElementTarget, RefAction, Risk } from "../computers/computer.ts";
import { normalizeChord } from "../computers/keys.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import type { Point, Spaces } from "../perception/coordinates.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { Action, AgentMode, Usage } from "../protocol/index.ts";

export type ToolMode = Exclude<AgentMode, "actions">;

export interface ToolContext {
  computer: Computer;
  web: BrowserPage;
  /** The model that resolves natural-language targets (act, fillForm) and extracts data. */
  model: ChatModel;
  signal: AbortSignal;
  /** The spaces of the screenshot the model saw last: its points are mapped back through them. */
  spaces: Spaces;
  jpegQuality: number;
  /** The largest image the model is sent. */
  imageMax: { width: number; height: number };
  saveArtifact(text: string): Promise<string>;
  /** Counts the tokens of a model call the tool made (act's and fillForm's choice, extract). */
  spend(usage: Usage): void;
  /** Asks the person to approve an action with these risks; true when none needs approval. */
  approve(risks: Risk[]): Promise<boolean>;
  /** Web search, when a provider is configured. */
  search?: (query: string, signal: AbortSignal) => Promise<unknown>;
}

export interface ToolOutcome {
  ok: boolean;
  /** What the model gets back (JSON). */
  data?: unknown;
  error?: { code: string; message: string };
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

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** The modes that offer it (seed 001 §12.1). */
  modes: readonly ToolMode[];
  /** Offered only to models that take images. */
  needsVision?: boolean;
  run(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}

/** Keeps a tool's input type attached to its run function. */
export function defineTool<S extends z.ZodType>(tool: AgentTool<S>): AgentTool<S> {
  return tool;
}

export const BOTH: readonly ToolMode[] = ["dom", "hybrid"];

export function failed(code: string, message: string): ToolOutcome {
  return { ok: false, error: { code, message } };
}

/** What an element action amounts to for approvals: a click, Enter pressed in it, or neither. */
export function activation(action: RefAction | null): "click" | "enter" | null {
  if (action === null || action.kind === "click") return "click";
  if (action.kind === "press") return pressesEnter(action.key.split("+")) ? "enter" : null;
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

/** The risks of clicking at a point, and of Enter there too when the text to type has a line break. */
export async function risksAt(ctx: ToolContext, at: { x: number; y: number }, text = ""): Promise<Risk[]> {
  const click = await ctx.web.risksOf(at, "click");
  return typesEnter(text) ? [...click, ...(await ctx.web.risksOf(at, "enter"))] : click;
}

/** Asks the person when an action risks something (seed 001 §3.3); a refusal is the tool's result. */
export async function refused(ctx: ToolContext, risks: Risk[]): Promise<ToolOutcome | null> {
  if (risks.length === 0 || (await ctx.approve(risks))) return null;
  return failed("DENIED", `The person did not allow this: it ${risks.map((r) => r.message).join(" and ")}.`);
}
