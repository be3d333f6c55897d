// dragAndDrop: press at one point, move in steps, release at another (hybrid mode, seed 001
// §12.2), through the hands so its effect is checked. A replay drags between the two recorded
// elements where they are now.
import { z } from "zod";
import type { Point } from "../perception/coordinates.ts";
import { pointSchema, toScreen } from "./points.ts";
import { centerOf, defineTool, failed, labelled, pageOf, type ToolContext } from "./tool.ts";

function drag(ctx: ToolContext, from: Point, to: Point, describe: string) {
  const action = { type: "drag" as const, args: { x: from.x, y: from.y, end_x: to.x, end_y: to.y }, intent: describe, requires_verification: false };
  return ctx.perform({ kind: "action", action, intent: describe }).then(() => action);
}

export const dragAndDrop = defineTool({
  name: "dragAndDrop",
  description: "Drag from one point of the latest screenshot to another: sliders, sortable lists, moving items.",
  input: z.object({ describe: z.string(), startCoordinates: pointSchema, endCoordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ describe }) => labelled("dragAndDrop", describe),
  async run({ describe, startCoordinates, endCoordinates }, ctx) {
    const from = toScreen(ctx, startCoordinates);
    const to = toScreen(ctx, endCoordinates);
    if (typeof from === "string" || typeof to === "string") return failed("INVALID_TARGET", typeof from === "string" ? from : (to as string));
    const [start, end] = await Promise.all([pageOf(ctx).targetAt(from.x, from.y), pageOf(ctx).targetAt(to.x, to.y)]);
    const targets = start && end ? [{ target: start, action: null }, { target: end, action: null }] : [];
    const action = await drag(ctx, from, to, describe);
    return { ok: true, data: { success: true, describe }, action, at: from, targets };
  },
  async replay({ describe }, found, ctx) {
    const [from, to] = found.map((f) => centerOf(f.target)!);
    await drag(ctx, from!, to!, describe);
    return { ok: true, data: { success: true, replayed: true }, at: from!, targets: found };
  },
});
