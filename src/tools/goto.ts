// goto: open an address (seed 001 §12.2); http(s) only, through the hands like every action.
import { z } from "zod";
import { BOTH, defineTool, failed, labelled, type ToolOutcome } from "./tool.ts";

export const goto = defineTool({
  name: "goto",
  description: "Open a web address in the current tab. Use it when you know the address.",
  input: z.object({ url: z.string().min(1) }),
  modes: BOTH,
  label: ({ url }) => labelled("goto", url),
  async run({ url }, ctx) {
    const address = webAddress(url);
    if (typeof address !== "string") return address;
    const action = { type: "navigate" as const, args: { url: address }, intent: `open ${address}`, requires_verification: false };
    await ctx.perform({ kind: "action", action, intent: action.intent });
    return { ok: true, data: { success: true, url: await ctx.computer.currentUrl() }, action };
  },
});

/** The address a model wrote, https:// when it names no scheme; a failure for anything but http(s). */
export function webAddress(url: string): string | ToolOutcome {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  } catch {
    return failed("INVALID_ARGUMENTS", `${JSON.stringify(url)} is not a web address`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return failed("INVALID_ARGUMENTS", `only http(s) addresses can be opened, not ${parsed.protocol}`);
  return parsed.href;
}
