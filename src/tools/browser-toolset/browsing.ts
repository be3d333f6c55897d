// The browser toolset's members about where the tab is: navigate (an address, back, reload — not
// forward, which our page cannot do), wait, and list_tabs, whose answer is the tabs the result
// reports (the driver adds them to every result that did not fail).
import { z } from "zod";
import { BOTH, defineTool, failed, labelled, pageOf, type ToolOutcome } from "../tool.ts";
import { otherTab, tabIdSchema } from "./member.ts";

const MAX_WAIT_S = 30;

export const navigate = defineTool({
  name: "navigate",
  description: 'Open an address in the tab (https:// when it names no scheme), or "back" / "reload".',
  input: z.object({ url: z.string().min(1), tab_id: tabIdSchema }),
  modes: BOTH,
  label: ({ url }) => labelled("navigate", url),
  async run({ url, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    const word = url.trim().toLowerCase();
    if (word === "back") {
      await ctx.perform({ kind: "page", run: () => pageOf(ctx).goBack(), passive: true, intent: "go back" });
      return arrived(ctx.computer.currentUrl());
    }
    if (word === "forward") return failed("ACTION_FAILED", "This browser cannot go forward; navigate to the address instead.");
    const address = word === "reload" ? await ctx.computer.currentUrl() : url;
    let parsed: URL;
    try {
      parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(address ?? "") ? address! : `https://${address}`);
    } catch {
      return failed("INVALID_ARGUMENTS", `${JSON.stringify(url)} is not a web address.`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return failed("INVALID_ARGUMENTS", `Only http(s) addresses can be opened, not ${parsed.protocol}`);
    const action = { type: "navigate" as const, args: { url: parsed.href }, intent: `open ${parsed.href}`, requires_verification: false };
    await ctx.perform({ kind: "action", action, intent: action.intent });
    return { ...(await arrived(ctx.computer.currentUrl())), action };
  },
});

async function arrived(where: Promise<string | null>): Promise<ToolOutcome> {
  const url = await where;
  return { ok: true, data: { success: true, url }, text: `The tab shows ${url ?? "no page"}.` };
}

export const wait = defineTool({
  name: "wait",
  description: `Pause for a number of seconds (at most ${MAX_WAIT_S}).`,
  input: z.object({ duration: z.number().min(0).max(MAX_WAIT_S), tab_id: tabIdSchema }),
  modes: BOTH,
  looks: true,
  label: ({ duration }) => `wait ${duration} s`,
  async run({ duration, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    await ctx.progress.sleep(duration * 1000);
    return { ok: true, data: { success: true, waited: duration }, text: `Waited ${duration} s.` };
  },
});

export const listTabs = defineTool({
  name: "list_tabs",
  description: "List the open tabs.",
  input: z.object({}),
  modes: BOTH,
  looks: true,
  async run(): Promise<ToolOutcome> {
    return { ok: true, data: { success: true }, text: "" };
  },
});
