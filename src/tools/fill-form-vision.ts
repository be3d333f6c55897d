// fillFormVision: several fields by their points on the latest screenshot (hybrid mode, seed 001
// §12.2): each is clicked, emptied and typed into.
import { z } from "zod";
import type { ElementTarget } from "../computers/computer.ts";
import { toScreen } from "./points.ts";
import { defineTool, failed, refused, risksAt } from "./tool.ts";

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
  async run({ fields }, ctx) {
    const targets: { target: ElementTarget; action: null }[] = [];
    for (const field of fields) {
      ctx.signal.throwIfAborted();
      const at = toScreen(ctx, [field.coordinates.x, field.coordinates.y]);
      if (typeof at === "string") return { ...failed("INVALID_TARGET", `${field.action}: ${at}`), targets };
      const denied = await refused(ctx, await risksAt(ctx, at, field.value));
      if (denied) return { ...denied, targets };
      const target = await ctx.web.targetAt(at.x, at.y);
      if (target) targets.push({ target, action: null });
      await ctx.computer.click(at.x, at.y);
      await ctx.computer.keypress(["Control", "a"]);
      await ctx.computer.type(field.value);
    }
    return { ok: true, data: { success: true, filled: fields.map((f) => f.action) }, targets };
  },
});
