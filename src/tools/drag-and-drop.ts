// dragAndDrop: press at one point, move in steps, release at another (hybrid mode, seed 001 §12.2).
import { z } from "zod";
import { pointSchema, toScreen } from "./points.ts";
import { defineTool, failed } from "./tool.ts";

export const dragAndDrop = defineTool({
  name: "dragAndDrop",
  description: "Drag from one point of the latest screenshot to another: sliders, sortable lists, moving items.",
  input: z.object({ describe: z.string(), startCoordinates: pointSchema, endCoordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  async run({ describe, startCoordinates, endCoordinates }, ctx) {
    const from = toScreen(ctx, startCoordinates);
    const to = toScreen(ctx, endCoordinates);
    if (typeof from === "string" || typeof to === "string") return failed("INVALID_TARGET", typeof from === "string" ? from : (to as string));
    const [start, end] = await Promise.all([ctx.web.targetAt(from.x, from.y), ctx.web.targetAt(to.x, to.y)]);
    const targets = start && end ? [{ target: start, action: null }, { target: end, action: null }] : [];
    await ctx.computer.drag(from, to);
    return {
      ok: true,
      data: { success: true, describe },
      action: { type: "drag", args: { x: from.x, y: from.y, end_x: to.x, end_y: to.y }, intent: describe, requires_verification: false },
      at: from,
      targets,
    };
  },
});
