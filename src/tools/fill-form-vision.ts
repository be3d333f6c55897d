// fillFormVision: several fields by their points on the latest screenshot (hybrid mode, seed 001
// §12.2): each is clicked (pointer-checked by the hands), emptied and typed into. A replay fills
// the recorded fields where they are now.
import { z } from "zod";
import type { ElementTarget } from "../computers/computer.ts";
import type { Point } from "../perception/coordinates.ts";
import { toScreen } from "./points.ts";
import { centerOf, clickAt, defineTool, failed, notPlaced, pageOf, type ToolContext, type ToolOutcome } from "./tool.ts";

/** Clicks the field, selects what is in it and types over it; an outcome when the click could not be aimed. */
async function fill(ctx: ToolContext, at: Point, action: string, value: string, element: ElementTarget | null): Promise<ToolOutcome | null> {
  const performed = await clickAt(ctx, at, action, { element, focus: true });
  if (performed.kind === "unverified") return notPlaced(performed, action);
  await ctx.perform({ kind: "action", action: { type: "keypress", args: { keys: ["Control", "a"] }, intent: action, requires_verification: false }, intent: action });
  await ctx.perform({ kind: "action", action: { type: "type", args: { text: value }, intent: action, requires_verification: false }, intent: action });
  return null;
}

export const fillFormVision = defineTool({
  name: "fillFormVision",
  description: "Fill several fields by clicking each at its point of the latest screenshot and typing its value. Does not submit.",
  input: z.object({
    fields: z
      .array(z.object({ action: z.string().min(1), value: z.string(), coordinates: z.object({ x: z.number(), y: z.number() }) }))
      .min(1)
      .max(50),
  }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ fields }) => `fillFormVision (${fields.length} ${fields.length === 1 ? "field" : "fields"})`,
  async run({ fields }, ctx) {
    const targets: { target: ElementTarget; action: null }[] = [];
    for (const field of fields) {
      ctx.progress.check();
      const at = toScreen(ctx, [field.coordinates.x, field.coordinates.y]);
      if (typeof at === "string") return { ...failed("INVALID_TARGET", `${field.action}: ${at}`), targets };
      const target = await pageOf(ctx).targetAt(at.x, at.y);
      if (target) targets.push({ target, action: null });
      const missed = await fill(ctx, at, field.action, field.value, null);
      if (missed) return { ...missed, targets };
    }
    // Replay pairs each field with its element: a call that lacks one is done again as written.
    return { ok: true, data: { success: true, filled: fields.map((f) => f.action) }, targets: targets.length === fields.length ? targets : [] };
  },
  async replay({ fields }, found, ctx) {
    if (found.length !== fields.length) return failed("INVALID_TARGET", `The recording names ${found.length} elements for ${fields.length} fields.`);
    for (const [i, { target }] of found.entries()) {
      const field = fields[i]!;
      const missed = await fill(ctx, centerOf(target)!, field.action, field.value, target);
      if (missed) return missed;
    }
    return { ok: true, data: { success: true, replayed: true }, targets: found };
  },
});
