// click: a click at a point of the latest screenshot (hybrid mode, seed 001 §12.2), through the
// hands: the pointer is checked on the element under the point, and the click's effect after it.
// The element is recorded so that replay can find it again; a replay clicks it where it is now.
import { z } from "zod";
import { pointSchema, toScreen } from "./points.ts";
import { centerOf, clickAt, defineTool, failed, labelled, notPlaced, pageOf } from "./tool.ts";

export const click = defineTool({
  name: "click",
  description: "Click at a point of the latest screenshot. Use it for elements you can see.",
  input: z.object({ describe: z.string().describe("what is being clicked, as a person would say it"), coordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ describe }) => labelled("click", describe),
  async run({ describe, coordinates }, ctx) {
    const aim = toScreen(ctx, coordinates);
    if (typeof aim === "string") return failed("INVALID_TARGET", aim);
    const target = await pageOf(ctx).targetAt(aim.x, aim.y);
    const performed = await clickAt(ctx, aim, describe);
    if (performed.kind === "unverified") return notPlaced(performed, describe);
    const at = performed.at ?? aim;
    return {
      ok: true,
      data: { success: true, describe, coordinates },
      action: { type: "click", args: { x: at.x, y: at.y, button: "left" }, intent: describe, requires_verification: true },
      at,
      targets: target ? [{ target, action: null }] : [],
    };
  },
  async replay({ describe }, [found], ctx) {
    const at = centerOf(found!.target)!;
    const performed = await clickAt(ctx, at, describe, { element: found!.target });
    if (performed.kind === "unverified") return notPlaced(performed, describe);
    return { ok: true, data: { success: true, replayed: true }, at: performed.at ?? at, targets: [found!] };
  },
  heal: ({ describe }) => ({ name: "act", input: { action: `click ${describe}` } }),
});
