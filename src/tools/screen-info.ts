// screen_info (seed 003 step 1-3, low risk): the screen's resolution, where the pointer is and
// which window has the focus — in the pixels of the latest screenshot, the space every point the
// model names is read in.
import { z } from "zod";
import { convert } from "../perception/coordinates.ts";
import { BOTH, defineTool } from "./tool.ts";

export const screenInfo = defineTool({
  name: "screen_info",
  description: "Get the screen's resolution, the mouse cursor's position and the focused window. Positions are pixels of the latest screenshot.",
  input: z.object({}),
  modes: BOTH,
  computers: ["desktop"],
  looks: true,
  async run(_input, ctx) {
    const { spaces, computer } = ctx;
    const [cursor, window] = await Promise.all([computer.cursorPosition(), computer.activeWindow?.() ?? null]);
    return {
      ok: true,
      data: {
        width: spaces.model.width,
        height: spaces.model.height,
        screen: { width: computer.logicalSize.width, height: computer.logicalSize.height },
        cursor: convert(cursor, spaces, "screenshot", "model"),
        activeWindow: window,
      },
    };
  },
});
