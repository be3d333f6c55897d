// scrollVision (hybrid mode): the mouse wheel at a point, so nested scrolling areas scroll too
// (seed 001 §12.2); through the hands, so a scroll that moves nothing is tried once the other way
// and says so.
import { z } from "zod";
import { pointSchema, toScreen } from "./points.ts";
import { defineTool, failed } from "./tool.ts";

export const scrollVision = defineTool({
  name: "scrollVision",
  description: "Scroll with the mouse wheel at a point of the latest screenshot (the page's centre when no point is given), by a percentage of the viewport (80 by default).",
  input: z.object({ direction: z.enum(["up", "down", "left", "right"]), coordinates: pointSchema.optional(), percentage: z.number().min(1).max(200).optional() }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ direction }) => `scrollVision ${direction}`,
  async run({ direction, coordinates, percentage = 80 }, ctx) {
    const { screenshot, model } = ctx.spaces;
    const at = toScreen(ctx, coordinates ?? [Math.floor(model.width / 2), Math.floor(model.height / 2)]);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const vertical = direction === "up" || direction === "down";
    const amount = Math.round(((vertical ? screenshot.height : screenshot.width) * percentage) / 100) * (direction === "up" || direction === "left" ? -1 : 1);
    const [dx, dy] = vertical ? [0, amount] : [amount, 0];
    const action = { type: "scroll" as const, args: { x: at.x, y: at.y, scroll_x: dx, scroll_y: dy }, intent: `scroll ${direction}`, requires_verification: false };
    const performed = await ctx.perform({ kind: "action", action, intent: action.intent });
    // Only a scroll that moved nothing at first has a note: where it went instead, or that it went nowhere.
    const note = performed.kind === "acted" ? performed.effect?.note : null;
    return {
      ok: true,
      data: { success: true, message: note ? `At (${at.x}, ${at.y}): ${note}.` : `Scrolled ${direction} at (${at.x}, ${at.y}).` },
      action,
      at,
    };
  },
});
