// click: a click at a point of the latest screenshot (hybrid mode, seed 001 §12.2); the element
// under it is recorded so that replay can find it again.
import { z } from "zod";
import { pointSchema, toScreen } from "./points.ts";
import { defineTool, failed, refused, risksAt } from "./tool.ts";

export const click = defineTool({
  name: "click",
  description: "Click at a point of the latest screenshot. Use it for elements you can see.",
  input: z.object({ describe: z.string().describe("what is being clicked, as a person would say it"), coordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  async run({ describe, coordinates }, ctx) {
    const at = toScreen(ctx, coordinates);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const denied = await refused(ctx, await risksAt(ctx, at));
    if (denied) return denied;
    const target = await ctx.web.targetAt(at.x, at.y);
    await ctx.computer.click(at.x, at.y);
    return {
      ok: true,
      data: { success: true, describe, coordinates },
      action: { type: "click", args: { x: at.x, y: at.y, button: "left" }, intent: describe, requires_verification: false },
      at,
      targets: target ? [{ target, action: null }] : [],
    };
  },
});
