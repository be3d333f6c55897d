// What the browser toolset's members share: the inputs its reference gives every member (a target
// by ref or by viewport point, the tab), which tab they act on, and taking a ref back to our element before
// acting on it through the hands — refused as stale, with what to do, when the page moved on.
import { z } from "zod";
import type { RefAction } from "../../computers/computer.ts";
import { AppError } from "../../core/errors.ts";
import type { Point } from "../../perception/coordinates.ts";
import { toScreen } from "../points.ts";
import { actOnElement, centerOf, failed, pageOf, type ToolContext, type ToolOutcome } from "../tool.ts";
import { changedMessage, goneMessage, identityOf, type Resolved } from "./refs.ts";

/** The task's first tab, and the only one of a browser that is not the agent's own (the extension's tab). */
export const TAB_ID = "tab_1";

export const tabIdSchema = z.string().optional().describe("Tab to act on; the active tab when omitted.");

export const refTargetSchema = z.object({
  type: z.literal("ref"),
  ref: z.string().min(1).describe('An element reference ("ref_7") from a prior read_page or find result.'),
});
export const coordinateTargetSchema = z.object({
  type: z.literal("coordinate"),
  x: z.number().int().describe("Pixels from the left edge of the viewport, as the latest screenshot shows it."),
  y: z.number().int().describe("Pixels from the top edge of the viewport, as the latest screenshot shows it."),
});
export const clickTargetSchema = z.discriminatedUnion("type", [coordinateTargetSchema, refTargetSchema]);
export type ClickTarget = z.infer<typeof clickTargetSchema>;

/**
 * A call naming a tab other than the active one is refused: a member acts on the tab the screen
 * shows, and switch_tab is how another becomes it.
 */
export async function otherTab(ctx: ToolContext, tabId: string | undefined): Promise<ToolOutcome | null> {
  if (tabId === undefined || tabId === "") return null;
  const open = (await ctx.computer.tabs?.list()) ?? [{ id: TAB_ID, active: true }];
  const active = open.find((tab) => tab.active)?.id ?? TAB_ID;
  if (tabId === active) return null;
  if (open.some((tab) => tab.id === tabId)) return failed("INVALID_ARGUMENTS", `${tabId} is not the active tab (${active} is): switch_tab to it first.`);
  return failed("INVALID_ARGUMENTS", `There is no tab ${JSON.stringify(tabId)}: the open tabs are ${open.map((tab) => tab.id).join(", ")}.`);
}

/** The view a ref's element is checked against: its own line is all that is read. */
const CHECK_TOKENS = 200;

/**
 * A toolset ref as ours, on the page the tab shows now, and checked on a fresh read of the page:
 * the element must still be what it was read as (its role and name), so a page rebuilt under the
 * same address never gets a stale ref's action. The fresh read is also the one our ref is found in.
 */
export async function ourRef(ctx: ToolContext, theirs: string): Promise<Resolved> {
  const resolved = ctx.refs.resolve(theirs, await ctx.computer.currentUrl());
  if (!resolved.ok) return resolved;
  let line: string;
  try {
    line = (await pageOf(ctx).view({ section: resolved.ours, budget: CHECK_TOKENS })).text.split("\n")[1] ?? "";
  } catch (error) {
    if (isGone(error)) return { ok: false, message: goneMessage(theirs) };
    throw error;
  }
  const now = identityOf(line).identity;
  return now === resolved.identity ? resolved : { ok: false, message: changedMessage(theirs, resolved.identity, now) };
}

/** A point of the viewport as the model saw it (the latest screenshot), in screenshot pixels. */
export function viewportPoint(ctx: ToolContext, { x, y }: { x: number; y: number }): Point | string {
  return toScreen(ctx, [x, y]);
}

/** A ref that named an element which is no longer there: the page changed under it. */
export function isGone(error: unknown): boolean {
  return error instanceof AppError && error.code === "INVALID_TARGET";
}

/**
 * Acts on the element a toolset ref names, through the hands (judged by the approval policy,
 * a click pointer-checked): the outcome says what was done, in `done`'s words. `how`: the action,
 * or how to choose it by the element's role.
 */
export async function onRef(ctx: ToolContext, theirs: string, how: RefAction | ((role: string) => RefAction), done: string): Promise<ToolOutcome> {
  const resolved = await ourRef(ctx, theirs);
  if (!resolved.ok) return failed("INVALID_TARGET", resolved.message);
  const action = typeof how === "function" ? how(resolved.role) : how;
  let acted: Awaited<ReturnType<typeof actOnElement>>;
  try {
    acted = await actOnElement(ctx, { ref: resolved.ours }, action, `${done} (${theirs})`);
  } catch (error) {
    if (isGone(error)) return failed("INVALID_TARGET", goneMessage(theirs));
    throw error;
  }
  if (!acted.ok) return acted.outcome;
  const at = centerOf(acted.target);
  return { ok: true, data: { success: true, ref: theirs, ours: resolved.ours }, text: `${done} ${theirs}.`, targets: [{ target: acted.target, action }], ...(at ? { at } : {}) };
}

/** Scrolls the element a toolset ref names into view; only the page moves. */
export async function scrollToRef(ctx: ToolContext, theirs: string): Promise<ToolOutcome> {
  const resolved = await ourRef(ctx, theirs);
  if (!resolved.ok) return failed("INVALID_TARGET", resolved.message);
  try {
    await ctx.perform({ kind: "page", run: () => pageOf(ctx).locate(resolved.ours).then(() => undefined), intent: `scroll to ${theirs}`, passive: true });
  } catch (error) {
    if (isGone(error)) return failed("INVALID_TARGET", goneMessage(theirs));
    throw error;
  }
  return { ok: true, data: { success: true, ref: theirs }, text: `Scrolled ${theirs} into view.` };
}
