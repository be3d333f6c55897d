// close: the agent says it is finished — with the task done, or not (seed 001 §3.2, §13.2). Every
// run must end with it.
import { z } from "zod";
import { ANY_COMPUTER, BOTH, defineTool, labelled } from "./tool.ts";

export const close = defineTool({
  name: "close",
  description:
    "Finish the task. Call it when the goal is reached (taskComplete: true) or cannot be reached (false). reasoning is your answer to the person: what you did and found, with every value they asked for.",
  input: z.object({ reasoning: z.string().min(1), taskComplete: z.boolean() }),
  modes: BOTH,
  computers: ANY_COMPUTER,
  ends: true,
  label: ({ reasoning }) => labelled("close", reasoning),
  async run({ reasoning, taskComplete }) {
    return { ok: true, data: { success: true, reasoning, taskComplete }, close: { reasoning, taskComplete } };
  },
});
