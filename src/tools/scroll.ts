// scroll (dom mode): the page by a share of the viewport (seed 001 §12.2); in dom mode the ARIA
// tree already covers the whole page, so this is for what must be seen or loaded. A scroll that
// moves nothing is tried once the other way (seed 002 §2.5), and the model is told which.
import { z } from "zod";
import { defineTool, pageOf, type ToolContext } from "./tool.ts";

const OTHER_WAY = { up: "down", down: "up" } as const;

export const scroll = defineTool({
  name: "scroll",
  description: "Scroll the page up or down by a percentage of the viewport (80 by default). The ARIA tree covers the whole page without scrolling; scroll to load more or to look.",
  input: z.object({ direction: z.enum(["up", "down"]), percentage: z.number().min(1).max(200).optional() }),
  modes: ["dom"],
  label: ({ direction }) => `scroll ${direction}`,
  async run({ direction, percentage = 80 }, ctx) {
    const scrolledPixels = await scrollPage(ctx, direction, percentage);
    if (scrolledPixels > 0) return { ok: true, data: { success: true, message: `Scrolled ${direction} by ${scrolledPixels} px.`, scrolled: direction, scrolledPixels } };
    const back = OTHER_WAY[direction];
    const backPixels = await scrollPage(ctx, back, percentage);
    const message =
      backPixels > 0
        ? `Nothing moved scrolling ${direction} (the end was reached), so it scrolled ${back} by ${backPixels} px instead.`
        : `Nothing moved scrolling ${direction}, nor ${back}: the page does not scroll.`;
    return { ok: true, data: { success: true, message, scrolled: backPixels > 0 ? back : null, scrolledPixels: backPixels } };
  },
});

/** Scrolls the page through the hands; how far it moved. */
async function scrollPage(ctx: ToolContext, direction: "up" | "down", percentage: number): Promise<number> {
  let scrolledPixels = 0;
  await ctx.perform({ kind: "page", run: async () => void ({ scrolledPixels } = await pageOf(ctx).scrollBy(direction, percentage)), passive: true });
  return scrolledPixels;
}
