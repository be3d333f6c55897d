// screenshot: what the screen shows, as an image for the model (seed 001 §12.2); its pixels are
// the space the coordinate tools' points are read in.
import { z } from "zod";
import { modelView } from "../perception/model-image.ts";
import { ANY_COMPUTER, BOTH, defineTool } from "./tool.ts";

export const screenshot = defineTool({
  name: "screenshot",
  description: "Take a screenshot of the screen as it is now. The coordinates the other tools take are pixels of the latest screenshot.",
  input: z.object({}),
  modes: BOTH,
  computers: ANY_COMPUTER,
  looks: true,
  needsVision: true,
  async run(_input, ctx) {
    const shot = await ctx.computer.screenshot();
    const view = await modelView(shot, ctx.computer.logicalSize, ctx.imageMax, ctx.jpegQuality);
    const pageUrl = await ctx.computer.currentUrl();
    const window = (await ctx.computer.activeWindow?.()) ?? null;
    return {
      ok: true,
      data: { width: view.image.width, height: view.image.height, pageUrl, ...(window ? { activeWindow: window } : {}), timestamp: new Date().toISOString() },
      image: { shot: view.image, spaces: view.spaces },
    };
  },
});
