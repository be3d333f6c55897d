// navback: the browser's Back (seed 001 §12.2), its effect checked by the hands.
import { z } from "zod";
import { BOTH, defineTool, pageOf } from "./tool.ts";

export const navback = defineTool({
  name: "navback",
  description: "Go back to the previous page.",
  input: z.object({ reasoningText: z.string().describe("why you go back") }),
  modes: BOTH,
  async run(_input, ctx) {
    await ctx.perform({ kind: "page", run: () => pageOf(ctx).goBack(), passive: true });
    return { ok: true, data: { success: true, url: await ctx.computer.currentUrl() } };
  },
});
