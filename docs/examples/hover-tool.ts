// The example of docs/adding-a-tool.md, compiled by `npm run typecheck` (it is not registered).
// hover: rest the pointer on a point of the latest screenshot (hybrid mode) to open a menu or show
// a tooltip. Through the hands, so its effect is checked; a replay hovers the recorded element.
import { z } from "zod";
import { pointSchema, toScreen } from "../../src/tools/points.ts";
import { actOnElement, defineTool, failed, labelled, pageOf } from "../../src/tools/tool.ts";

export const hover = defineTool({
  name: "hover",
  description: "Rest the pointer on a point of the latest screenshot, to open a menu or show a tooltip.",
  input: z.object({ describe: z.string().describe("what is hovered, as a person would say it"), coordinates: pointSchema }),
  modes: ["hybrid"],
  needsVision: true,
  label: ({ describe }) => labelled("hover", describe),
  async run({ describe, coordinates }, ctx) {
    const at = toScreen(ctx, coordinates);
    if (typeof at === "string") return failed("INVALID_TARGET", at);
    const target = await pageOf(ctx).targetAt(at.x, at.y);
    const action = { type: "move" as const, args: at, intent: describe, requires_verification: false };
    const performed = await ctx.perform({ kind: "action", action, intent: describe });
    const changed = performed.kind === "acted" && performed.effect?.changed === true;
    return { ok: true, data: { success: true, describe, changed }, action, at, targets: target ? [{ target, action: { kind: "hover" } }] : [] };
  },
  async replay({ describe }, found, ctx) {
    for (const { target } of found) {
      const acted = await actOnElement(ctx, { target }, { kind: "hover" }, describe);
      if (!acted.ok) return acted.outcome;
    }
    return { ok: true, data: { success: true, replayed: true }, targets: found };
  },
  heal: ({ describe }) => ({ name: "act", input: { action: `hover over ${describe}` } }),
});
