// type (hybrid mode): click a field at its point of the latest screenshot, then type (seed 001
// §12.2). The click is pointer-checked by the hands; the typing's effect is checked after it.
import { z } from "zod";
import type { ElementTarget } from "../computers/computer.ts";
import type { Point } from "../perception/coordinates.ts";
import { pointSchema, toScreen } from "./points.ts";
import { centerOf, clickAt, defineTool, failed, labelled, notPlaced, pageOf, type ToolContext, type ToolOutcome } from "./tool.ts";

async function clickAndType(ctx: ToolContext, aim: Point, describe: string, text: string, element: ElementTarget | null): Promise<ToolOutcome | Point> {
  const performed = await clickAt(ctx, aim, describe, { element, focus: true });
  if (performed.kind === "unverified") return notPlaced(performed, describe);
  await ctx.perform({ kind: "action", action: { type: "type", args: { text }, intent: describe, requires_verification: false }, intent: describe });
  return performed.at ?? aim;
}

export const type = defineTool({
  name: "type",
  description: "Click a field at a point of the latest screenshot and type text into it.",
  input: z.object({ describe: z.string(), text: z.string(), coordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ describe }) => labelled("type", describe),
  async run({ describe, text, coordinates }, ctx) {
    const aim = toScreen(ctx, coordinates);
    if (typeof aim === "string") return failed("INVALID_TARGET", aim);
    const target = await pageOf(ctx).targetAt(aim.x, aim.y);
    const at = await clickAndType(ctx, aim, describe, text, null);
    if (!("x" in at)) return at;
    return {
      ok: true,
      data: { success: true, describe, text },
      action: { type: "type", args: { text }, intent: describe, requires_verification: false },
      at,
      targets: target ? [{ target, action: null }] : [],
    };
  },
  async replay({ describe, text }, [found], ctx) {
    const element = found!.target;
    const at = await clickAndType(ctx, centerOf(element)!, describe, text, element);
    if (!("x" in at)) return at;
    return { ok: true, data: { success: true, replayed: true }, at, targets: [found!] };
  },
  heal: ({ describe, text }) => ({ name: "act", input: { action: `type ${JSON.stringify(text)} into ${describe}` } }),
});
