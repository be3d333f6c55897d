// act: one natural-language action on the page ("click the Save button", "type Ada into First
// name"). The whole page is searched for the instruction's words first; the model picks the element
// from a fresh view that shows those matches first, and the browser acts on it by ref.
import { z } from "zod";
import type { RefAction } from "../computers/computer.ts";
import { askJson, withSchema } from "./ask-model.ts";
import { actOnElement, BOTH, centerOf, defineTool, failed, labelled, pageOf, type RecordedTarget, type ToolContext, type ToolOutcome } from "./tool.ts";

/** The element chooser's view of the page, in tokens: the matches of its instruction, then the page in the view's order. */
export const CHOOSER_TOKENS = 4_000;

export const choiceSchema = z.object({
  ref: z.string().regex(/^[a-z]*\d*e\d+$/, "must be a ref from the tree, like e12"),
  method: z.enum(["click", "fill", "press", "select", "check", "uncheck", "hover"]),
  value: z.string().optional(),
});
export type Choice = z.infer<typeof choiceSchema>;

export const CHOOSER_SYSTEM = [
  "You choose elements of a web page for a browser agent, from an outline of the page's elements, where each has a ref like [ref=e12]. The elements whose names match the instruction come first.",
  'Answer with one JSON object: {"ref": "e12", "method": "click" | "fill" | "press" | "select" | "check" | "uncheck" | "hover", "value": "…"}.',
  "fill types the value into a field (replacing what is there); press presses the key in value (Enter, Tab…) in the element; select picks the option named in value.",
  "Pick the ref that is written in the tree; never invent one.",
].join("\n");

export function refAction(choice: Choice): RefAction | string {
  switch (choice.method) {
    case "click":
      return { kind: "click" };
    case "hover":
      return { kind: "hover" };
    case "check":
    case "uncheck":
      return { kind: "check", checked: choice.method === "check" };
    case "fill":
    case "press":
    case "select":
      if (choice.value === undefined) return `${choice.method} needs a value`;
      return choice.method === "fill"
        ? { kind: "fill", value: choice.value }
        : choice.method === "press"
          ? { kind: "press", key: choice.value }
          : { kind: "select", value: choice.value };
  }
}

export const act = defineTool({
  name: "act",
  description:
    "Do one action on the page, described in words: click a button or link, type into a field, pick an option, press a key in a field. One atomic action per call, e.g. \"click the 'Sign in' button\" or \"type 'Ada' into the First name field\".",
  input: z.object({ action: z.string().min(1).describe("the action, naming its target as a person sees it") }),
  modes: BOTH,
  label: ({ action }) => labelled("act", action),
  async run({ action }, ctx) {
    const view = await pageOf(ctx).view({ prefer: action, budget: CHOOSER_TOKENS });
    const question = `${view.text}\n\nInstruction: ${action}`;
    const choice = await askJson(ctx, CHOOSER_SYSTEM, question, withSchema(choiceSchema));
    if (!choice.ok) return failed("INVALID_TARGET", `No element could be chosen for "${action}": ${choice.error}`);
    const what = refAction(choice.value);
    if (typeof what === "string") return failed("INVALID_TARGET", what);
    const acted = await actOnElement(ctx, { ref: choice.value.ref }, what, action);
    if (!acted.ok) return acted.outcome;
    const { target } = acted;
    return {
      ok: true,
      data: { success: true, action, ref: choice.value.ref, method: choice.value.method, locator: target.locator },
      targets: [{ target, action: what }],
      ...(centerOf(target) ? { at: centerOf(target) } : {}),
    };
  },
  replay: (input, found, ctx) => replayOnElements(input.action, found, ctx),
  heal: (input) => ({ name: "act", input }),
});

/** Does recorded element actions again on the elements found again (act, fillForm). */
export async function replayOnElements(intent: string, found: RecordedTarget[], ctx: ToolContext): Promise<ToolOutcome> {
  const acted: RecordedTarget[] = [];
  for (const { target, action: recorded } of found) {
    ctx.progress.check();
    const action: RefAction = recorded ?? { kind: "click" };
    // A click lands on the element's box: measured as its turn comes, in view, since the actions
    // before it may have moved the page. The other actions find their element themselves.
    const now = action.kind === "click" ? await pageOf(ctx).findTarget(target, { scroll: true }) : target;
    if (!now?.box) return failed("INVALID_TARGET", `${intent}: the recorded element ${target.locator ?? target.xpath} is not on the page any more.`);
    const done = await actOnElement(ctx, { target: now }, action, intent);
    if (!done.ok) return done.outcome;
    acted.push({ target: now, action: recorded });
  }
  const at = acted[0] ? centerOf(acted[0].target) : undefined;
  return { ok: true, data: { success: true, replayed: true }, targets: acted, ...(at ? { at } : {}) };
}
