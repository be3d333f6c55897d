// computer_use (seed 003 step 3-1, high risk): the call that hands the desktop to the agent's
// loop. The approval policy's `high_risk` judges it first (by default the person is asked); it
// acts on nothing itself — it returns the screen as it is now and how to go on: mouse_action and
// keyboard_action to act, screenshot to check each result.
import { z } from "zod";
import { modelView } from "../perception/model-image.ts";
import { BOTH, defineTool, labelled } from "./tool.ts";

export const computerUse = defineTool({
  name: "computer_use",
  description:
    "Start operating the desktop for a task: you get the current screen, then act with mouse_action and keyboard_action and check each result with screenshot. Call it once, first.",
  input: z.object({ task: z.string().min(1).describe("the task to do on the desktop, e.g. open the text editor and type Hello") }),
  modes: BOTH,
  computers: ["desktop"],
  risk: "high",
  needsVision: true,
  label: ({ task }) => labelled("computer_use", task),
  async run({ task }, ctx) {
    const { computer } = ctx;
    const view = await modelView(await computer.screenshot(), computer.logicalSize, ctx.imageMax, ctx.jpegQuality);
    const window = (await computer.activeWindow?.()) ?? null;
    return {
      ok: true,
      data: {
        task,
        width: view.image.width,
        height: view.image.height,
        activeWindow: window,
        next: `This is the screen now. Your task: ${task}. Use mouse_action and keyboard_action to do it, and screenshot after each step to check the result.`,
      },
      image: { shot: view.image, spaces: view.spaces },
    };
  },
});
