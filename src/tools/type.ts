// type (hybrid mode): click a field at its point of the latest screenshot, then type (seed 001 §12.2).
import { z } from "zod";
import { pointSchema, toScreen } from "./points.ts";
import { defineTool, failed, refused, risksAt } from "./tool.ts";

export const type = defineTool({
  name: "type",
  description: "Click a field at a point of the latest screenshot and type text into it.",
  input: z.object({ describe: z.string(), text: z.string(), coordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  async run({ describe, text, coordinates }, ctx) {
    const at = toScreen(ctx, coordinates);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const denied = await refused(ctx, await risksAt(ctx, at, text));
    if (denied) return denied;
    const target = await ctx.web.targetAt(at.x, at.y);
    await ctx.computer.click(at.x, at.y);
    await ctx.computer.type(text);
    return {
      ok: true,
      data: { success: true, describe, text },
      action: { type: "type", args: { text }, intent: describe, requires_verification: false },
      at,
      targets: target ? [{ target, action: null }] : [],
    };
  },
});
