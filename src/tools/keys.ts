// keys: keyboard input to whatever has focus (seed 001 §12.2): a key or chord pressed, or text
// typed, optionally repeated — one action for the hands, whose effect is checked once.
import { z } from "zod";
import { BOTH, defineTool, labelled } from "./tool.ts";

export const keys = defineTool({
  name: "keys",
  description:
    'Send keyboard input to the focused element. method "press": a key or chord like "Enter", "Tab", "Control+A", "Escape"; method "type": text typed as is. repeat presses it several times.',
  input: z.object({ method: z.enum(["press", "type"]), value: z.string().min(1), repeat: z.number().int().min(1).max(50).optional() }),
  modes: BOTH,
  label: ({ method, value }) => labelled(`keys ${method}`, value),
  async run({ method, value, repeat = 1 }, ctx) {
    const chord = value.split("+").map((k) => k.trim()).filter(Boolean);
    const action =
      method === "press"
        ? ({ type: "keypress", args: { keys: chord }, intent: `press ${value}`, requires_verification: false } as const)
        : ({ type: "type", args: { text: value }, intent: "type", requires_verification: false } as const);
    await ctx.perform({ kind: "action", action, intent: action.intent, repeat });
    return { ok: true, data: { success: true, method, value, times: repeat }, action };
  },
});
