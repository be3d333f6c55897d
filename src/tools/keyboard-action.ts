// keyboard_action (seed 003 step 1-2, medium risk): text typed, a key pressed, or a chord held,
// into whatever has the desktop's focus, through the hands: the call is judged by the approval
// policy's `medium_risk` and `keyboard_input`, a risky chord by `hotkey`, and the effect is checked.
import { z } from "zod";
import type { ScreenAction } from "../perception/resolve.ts";
import { defineTool, failed, labelled } from "./tool.ts";

const input = z.object({
  action: z.enum(["type", "press", "hotkey"]),
  text: z.string().optional().describe("type only: the text, typed as is (any language)"),
  key: z.string().optional().describe("press only: a key name such as enter, tab, escape, f5"),
  keys: z.array(z.string().min(1)).optional().describe("hotkey only: the chord, such as [\"ctrl\", \"s\"]"),
});

export const keyboardAction = defineTool({
  name: "keyboard_action",
  description: 'Control the keyboard: type text (text), press a key (key: "enter", "tab", "escape"…), or a hotkey chord (keys: ["ctrl", "s"]). It goes to the focused window.',
  input,
  modes: ["dom", "hybrid"],
  computers: ["desktop"],
  risk: "keyboard",
  label: ({ action, text, key, keys }) => (action === "type" ? labelled("type", text ?? "") : `${action} ${action === "press" ? (key ?? "") : (keys ?? []).join("+")}`),
  async run(call, ctx) {
    let action: ScreenAction;
    if (call.action === "type") {
      if (!call.text) return failed("INVALID_ARGUMENTS", "type needs the text to type.");
      action = { type: "type", args: { text: call.text }, intent: "type", requires_verification: false };
    } else {
      const chord = call.action === "press" ? (call.key ? [call.key] : []) : (call.keys ?? []);
      if (chord.length === 0) return failed("INVALID_ARGUMENTS", call.action === "press" ? "press needs a key." : "hotkey needs keys, such as [\"ctrl\", \"s\"].");
      action = { type: "keypress", args: { keys: chord }, intent: `${call.action} ${chord.join("+")}`, requires_verification: false };
    }
    await ctx.perform({ kind: "action", action, intent: action.intent });
    return { ok: true, data: { success: true, ...call }, action };
  },
});
