// scroll (dom mode): the page by a share of the viewport (seed 001 §12.2); in dom mode the ARIA
// tree already covers the whole page, so this is for what must be seen or loaded.
import { z } from "zod";
import { defineTool, pageOf } from "./tool.ts";

export const scroll = defineTool({
  name: "scroll",
  description: "Scroll the page up or down by a percentage of the viewport (80 by default). The ARIA tree covers the whole page without scrolling; scroll to load more or to look.",
  input: z.object({ direction: z.enum(["up", "down"]), percentage: z.number().min(1).max(200).optional() }),
  modes: ["dom"],
  label: ({ direction }) => `scroll ${direction}`,
  async run({ direction, percentage = 80 }, ctx) {
    let scrolledPixels = 0;
    await ctx.perform({ kind: "page", run: async () => void ({ scrolledPixels } = await pageOf(ctx).scrollBy(direction, percentage)), passive: true });
    const message = scrolledPixels === 0 ? `The page cannot scroll further ${direction}.` : `Scrolled ${direction} by ${scrolledPixels} px.`;
    return { ok: true, data: { success: true, message, scrolledPixels } };
  },
});
