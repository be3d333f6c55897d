// clickAndHold: press at a point, hold for a while, release — long-press menus and hold-to-confirm
// buttons (seed 001 §12.2). Its effect is checked by the hands; a replay holds the recorded
// element where it is now.
import { z } from "zod";
import { pointSchema, toScreen } from "./points.ts";
import { centerOf, defineTool, failed, labelled, pageOf } from "./tool.ts";

export const clickAndHold = defineTool({
  name: "clickAndHold",
  description: "Press at a point of the latest screenshot and hold for a number of milliseconds before releasing.",
  input: z.object({ describe: z.string(), duration: z.number().int().min(1).max(10_000).describe("milliseconds"), coordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ describe }) => labelled("clickAndHold", describe),
  async run({ describe, duration, coordinates }, ctx) {
    const at = toScreen(ctx, coordinates);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const target = await pageOf(ctx).targetAt(at.x, at.y);
    await ctx.perform({ kind: "page", run: () => pageOf(ctx).holdAt(at.x, at.y, duration), intent: describe, on: { element: at, how: "click" } });
    return { ok: true, data: { success: true, describe }, at, targets: target ? [{ target, action: null }] : [] };
  },
  async replay({ duration }, [found], ctx) {
    const at = centerOf(found!.target)!;
    await ctx.perform({ kind: "page", run: () => pageOf(ctx).holdAt(at.x, at.y, duration), on: { element: at, how: "click" } });
    return { ok: true, data: { success: true, replayed: true }, at, targets: [found!] };
  },
});
