// The browser toolset's acting members, each through the hands like our own tools (judged by the
// approval policy, a click pointer-checked, its effect measured): left_click and hover by ref or by
// point, scroll_to and form_input by ref, type and key at the focus, scroll at a point.
import { z } from "zod";
import type { RefAction } from "../../computers/computer.ts";
import { WHEEL_NOTCH_PX } from "../../protocol/index.ts";
import { replayOnElements } from "../act.ts";
import { BOTH, clickAt, defineTool, failed, labelled, notPlaced, pageOf, type ToolOutcome } from "../tool.ts";
import { clickTargetSchema, coordinateTargetSchema, onRef, otherTab, refTargetSchema, scrollToRef, tabIdSchema, viewportPoint, type ClickTarget } from "./member.ts";

const targetLabel = (target: ClickTarget) => (target.type === "ref" ? target.ref : `(${target.x}, ${target.y})`);
/** How a key is named in the toolset's examples, as our keyboard names it. */
const KEY_NAMES: Record<string, string> = { return: "Enter", backspace: "Backspace", esc: "Escape", cmd: "Meta", ctrl: "Control" };

export const leftClick = defineTool({
  name: "left_click",
  description: "Left-click an element by reference, or a point of the viewport.",
  input: z.object({
    target: clickTargetSchema,
    modifiers: z.string().optional().describe('A modifier chord held during the click ("shift", "ctrl+shift").'),
    tab_id: tabIdSchema,
  }),
  modes: BOTH,
  label: ({ target }) => labelled("left_click", targetLabel(target)),
  async run({ target, modifiers, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    if (modifiers) return failed("INVALID_ARGUMENTS", "Clicks with modifier keys are not supported in this browser; click without them.");
    if (target.type === "ref") return onRef(ctx, target.ref, { kind: "click" }, "Clicked");
    const aim = viewportPoint(ctx, target);
    if (typeof aim === "string") return failed("INVALID_TARGET", aim);
    const element = await pageOf(ctx).targetAt(aim.x, aim.y);
    const intent = `click at (${target.x}, ${target.y})`;
    const performed = await clickAt(ctx, aim, intent);
    if (performed.kind === "unverified") return notPlaced(performed, `(${target.x}, ${target.y})`);
    const at = performed.at ?? aim;
    return {
      ok: true,
      data: { success: true, coordinate: [target.x, target.y] },
      text: `Clicked at (${target.x}, ${target.y}).`,
      action: { type: "click", args: { x: at.x, y: at.y, button: "left" }, intent, requires_verification: true },
      at,
      targets: element ? [{ target: element, action: null }] : [],
    };
  },
  replay: (input, found, ctx) => replayOnElements(`left_click ${targetLabel(input.target)}`, found, ctx),
});

export const hover = defineTool({
  name: "hover",
  description: "Move the pointer onto an element by reference, or to a point of the viewport, without clicking.",
  input: z.object({ target: clickTargetSchema, tab_id: tabIdSchema }),
  modes: BOTH,
  label: ({ target }) => labelled("hover", targetLabel(target)),
  async run({ target, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    if (target.type === "ref") return onRef(ctx, target.ref, { kind: "hover" }, "Hovered over");
    const aim = viewportPoint(ctx, target);
    if (typeof aim === "string") return failed("INVALID_TARGET", aim);
    const action = { type: "move" as const, args: aim, intent: `hover at (${target.x}, ${target.y})`, requires_verification: false };
    await ctx.perform({ kind: "action", action, intent: action.intent });
    return { ok: true, data: { success: true, coordinate: [target.x, target.y] }, text: `Hovered at (${target.x}, ${target.y}).`, action, at: aim };
  },
  replay: (input, found, ctx) => replayOnElements(`hover ${targetLabel(input.target)}`, found, ctx),
});

export const scrollTo = defineTool({
  name: "scroll_to",
  description: "Scroll an element, named by reference, into view.",
  input: z.object({ target: refTargetSchema, tab_id: tabIdSchema }),
  modes: BOTH,
  label: ({ target }) => labelled("scroll_to", target.ref),
  async run({ target, tab_id }, ctx): Promise<ToolOutcome> {
    return (await otherTab(ctx, tab_id)) ?? scrollToRef(ctx, target.ref);
  },
});

/** What setting a form element to a value is: ticking a box, choosing an option, or filling the field. */
export function formAction(role: string, value: string | number | boolean): RefAction {
  if (typeof value === "boolean") return { kind: "check", checked: value };
  if (role === "combobox" || role === "listbox") return { kind: "select", value: String(value) };
  return { kind: "fill", value: String(value) };
}

export const formInput = defineTool({
  name: "form_input",
  description: "Set a form element's value, named by reference: text for a field, true or false for a checkbox, an option's value or text for a select.",
  input: z.object({ target: refTargetSchema, value: z.union([z.string(), z.number(), z.boolean()]), tab_id: tabIdSchema }),
  modes: BOTH,
  label: ({ target }) => labelled("form_input", target.ref),
  async run({ target, value, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    return onRef(ctx, target.ref, (role) => formAction(role, value), "Set the value of");
  },
  replay: (input, found, ctx) => replayOnElements(`form_input ${input.target.ref}`, found, ctx),
});

export const typeText = defineTool({
  name: "type",
  description: "Type text where the focus is.",
  input: z.object({ text: z.string(), tab_id: tabIdSchema }),
  modes: BOTH,
  label: ({ text }) => labelled("type", text),
  async run({ text, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    if (text === "") return { ok: true, data: { success: true }, text: "Typed nothing." };
    const action = { type: "type" as const, args: { text }, intent: "type", requires_verification: false };
    await ctx.perform({ kind: "action", action, intent: action.intent });
    return { ok: true, data: { success: true, text }, text: "Typed.", action };
  },
});

/** A key sequence as chords: spaces separate presses, `+` joins a chord's keys. */
export function chordsOf(text: string): string[][] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((chord) => chord.split("+").filter(Boolean).map((key) => KEY_NAMES[key.toLowerCase()] ?? key));
}

export const key = defineTool({
  name: "key",
  description: 'Press a key or chord at the focus: "+" joins keys ("ctrl+a"), a space separates presses ("Tab Tab Return"); repeat presses it again.',
  input: z.object({ text: z.string().min(1), repeat: z.number().int().min(1).max(100).optional(), tab_id: tabIdSchema }),
  modes: BOTH,
  label: ({ text }) => labelled("key", text),
  async run({ text, repeat = 1, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    const chords = chordsOf(text);
    if (chords.length === 0) return failed("INVALID_ARGUMENTS", "text names no key.");
    for (let time = 0; time < repeat; time++) {
      for (const keys of chords) {
        ctx.progress.check();
        await ctx.perform({ kind: "action", action: { type: "keypress", args: { keys }, intent: `press ${keys.join("+")}`, requires_verification: false }, intent: `press ${text}` });
      }
    }
    return { ok: true, data: { success: true, text, times: repeat }, text: `Pressed ${text}${repeat > 1 ? ` ${repeat} times` : ""}.` };
  },
});

export const scroll = defineTool({
  name: "scroll",
  description: "Scroll with the mouse wheel at a point of the viewport, by 1–10 notches (3 by default).",
  input: z.object({
    scroll_direction: z.enum(["up", "down", "left", "right"]),
    target: coordinateTargetSchema,
    scroll_amount: z.number().int().min(1).max(10).optional(),
    tab_id: tabIdSchema,
  }),
  modes: BOTH,
  label: ({ scroll_direction }) => `scroll ${scroll_direction}`,
  async run({ scroll_direction: direction, target, scroll_amount = 3, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    const at = viewportPoint(ctx, target);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const amount = scroll_amount * WHEEL_NOTCH_PX * (direction === "up" || direction === "left" ? -1 : 1);
    const [dx, dy] = direction === "up" || direction === "down" ? [0, amount] : [amount, 0];
    const action = { type: "scroll" as const, args: { x: at.x, y: at.y, scroll_x: dx, scroll_y: dy }, intent: `scroll ${direction}`, requires_verification: false };
    const performed = await ctx.perform({ kind: "action", action, intent: action.intent });
    const moved = performed.kind === "acted" && performed.effect?.changed === true;
    // Only a scroll that moved nothing at first has a note: where it went instead, or that it went nowhere.
    const note = performed.kind === "acted" ? performed.effect?.note : null;
    return { ok: true, data: { success: true, moved }, text: note ? `${note[0]!.toUpperCase()}${note.slice(1)}.` : `Scrolled ${direction}.`, action, at };
  },
});
