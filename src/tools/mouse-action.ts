// mouse_action (seed 003 step 1-1, medium risk): the desktop's pointer — move, click, double or
// right click, drag, scroll — at pixels of the latest screenshot, through the hands: a point
// outside the screen is refused with its bounds, a click's pointer is checked, every action's
// effect too, and the call is judged by the approval policy's `medium_risk` first.
import { z } from "zod";
import type { ScreenAction } from "../perception/resolve.ts";
import { actionPoint, WHEEL_NOTCH_PX } from "../protocol/index.ts";
import { toScreen } from "./points.ts";
import { clickAt, defineTool, failed, notPlaced } from "./tool.ts";

const input = z.object({
  action: z.enum(["click", "double_click", "right_click", "move", "drag", "scroll"]),
  x: z.number().int().describe("X in the pixels of the latest screenshot"),
  y: z.number().int().describe("Y in the pixels of the latest screenshot"),
  end_x: z.number().int().optional().describe("drag only: where it ends"),
  end_y: z.number().int().optional().describe("drag only: where it ends"),
  scroll_amount: z.number().int().min(-50).max(50).optional().describe("scroll only: wheel notches, positive up, negative down"),
});

export const mouseAction = defineTool({
  name: "mouse_action",
  description:
    "Control the mouse at a point of the latest screenshot: click, double_click, right_click, move, drag (to end_x, end_y) or scroll (scroll_amount notches, positive up, negative down).",
  input,
  modes: ["dom", "hybrid"],
  computers: ["desktop"],
  risk: "medium",
  needsVision: true,
  label: ({ action, x, y, end_x, end_y, scroll_amount }) =>
    action === "drag" ? `drag (${x}, ${y}) → (${end_x}, ${end_y})` : action === "scroll" ? `scroll ${scroll_amount ?? 0} at (${x}, ${y})` : `${action.replace("_", " ")} at (${x}, ${y})`,
  async run(call, ctx) {
    const at = toScreen(ctx, [call.x, call.y]);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const intent = `${call.action.replace("_", " ")} at (${call.x}, ${call.y})`;
    if (call.action === "click") {
      const performed = await clickAt(ctx, at, intent);
      if (performed.kind === "unverified") return notPlaced(performed, `(${call.x}, ${call.y})`);
      const landed = performed.at ?? at;
      return done(call, { type: "click", args: { x: landed.x, y: landed.y, button: "left" }, intent, requires_verification: true });
    }
    let action: ScreenAction;
    if (call.action === "drag") {
      if (call.end_x === undefined || call.end_y === undefined) return failed("INVALID_ARGUMENTS", "drag needs end_x and end_y.");
      const end = toScreen(ctx, [call.end_x, call.end_y]);
      if (typeof end === "string") return failed("INVALID_TARGET", end);
      action = { type: "drag", args: { x: at.x, y: at.y, end_x: end.x, end_y: end.y }, intent, requires_verification: false };
    } else if (call.action === "scroll") {
      if (!call.scroll_amount) return failed("INVALID_ARGUMENTS", "scroll needs a scroll_amount other than 0: positive scrolls up, negative down.");
      action = { type: "scroll", args: { x: at.x, y: at.y, scroll_x: 0, scroll_y: -call.scroll_amount * WHEEL_NOTCH_PX }, intent, requires_verification: false };
    } else {
      action = { type: call.action, args: { x: at.x, y: at.y }, intent, requires_verification: false };
    }
    await ctx.perform({ kind: "action", action, intent });
    return done(call, action);
  },
});

function done(call: z.infer<typeof input>, action: ScreenAction) {
  const at = actionPoint(action) ?? undefined;
  return { ok: true, data: { success: true, ...call }, action, ...(at ? { at } : {}) };
}
