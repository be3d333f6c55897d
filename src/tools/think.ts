// think: room to reason without acting (seed 001 §12.2).
import { z } from "zod";
import { ANY_COMPUTER, BOTH, defineTool, labelled } from "./tool.ts";

export const think = defineTool({
  name: "think",
  description: "Think a plan through without acting on the page.",
  input: z.object({ reasoning: z.string().min(1) }),
  modes: BOTH,
  computers: ANY_COMPUTER,
  looks: true,
  label: ({ reasoning }) => labelled("think", reasoning),
  async run() {
    return { ok: true, data: { acknowledged: true, message: "Noted. Go on with the next step." } };
  },
});
