// The tabs of the agent's own browser (seed 001 §10): list them, open one (at an address, judged
// and fenced as goto is), switch to one and close one. The active tab is the page every other
// tool, the step's capture and the live view use. Opening, switching and closing go through the
// hands, so each is a step with its effect, judged by the approval policy.
import { z } from "zod";
import type { BrowserTabs, TabInfo } from "../computers/computer.ts";
import { webAddress } from "./goto.ts";
import { BOTH, defineTool, failed, labelled, type ToolContext, type ToolOutcome } from "./tool.ts";

const tabId = z.string().regex(/^tab_\d+$/, "must be a tab id from tabs, like tab_2").describe("the tab's id, as tabs lists it (tab_2)");

/** Tabs exist only in a browser of the task's own: a person's Chrome or the extension's tab is one page. */
function tabsOf(ctx: ToolContext): BrowserTabs | ToolOutcome {
  return ctx.computer.tabs ?? failed("ACTION_FAILED", "This browser is not the agent's own, so it drives only the one tab it was given: there are no other tabs to use.");
}

function isTabs(found: BrowserTabs | ToolOutcome): found is BrowserTabs {
  return "list" in found;
}

export const tabs = defineTool({
  name: "tabs",
  description: "List the browser's open tabs: id, title, address, and which one is active (the one you see and act on).",
  input: z.object({}),
  modes: BOTH,
  computers: ["browser"],
  looks: true,
  async run(_, ctx) {
    const found = tabsOf(ctx);
    if (!isTabs(found)) return found;
    return { ok: true, data: { success: true, tabs: await found.list() } };
  },
});

export const newTab = defineTool({
  name: "newTab",
  description: "Open a new tab, at a web address when one is given, and make it the active tab. The other tabs stay open; switchTab goes back to them.",
  input: z.object({ url: z.string().min(1).optional().describe("the address to open in it; a blank tab when omitted") }),
  modes: BOTH,
  computers: ["browser"],
  label: ({ url }) => (url ? labelled("newTab", url) : "newTab"),
  run: ({ url }, ctx) => openTab(ctx, url),
});

export const switchTab = defineTool({
  name: "switchTab",
  description: "Make another open tab the active one, by its id from tabs: from then on you see and act on that tab.",
  input: z.object({ id: tabId }),
  modes: BOTH,
  computers: ["browser"],
  label: ({ id }) => labelled("switchTab", id),
  run: ({ id }, ctx) => showTab(ctx, id),
});

export const closeTab = defineTool({
  name: "closeTab",
  description: "Close an open tab by its id from tabs (not the last one). When it was the active tab, the tab active before it becomes the active one.",
  input: z.object({ id: tabId }),
  modes: BOTH,
  computers: ["browser"],
  label: ({ id }) => labelled("closeTab", id),
  run: ({ id }, ctx) => shutTab(ctx, id),
});

/** Opens a tab, at `url` when given (judged as opening it in the tab would be), through the hands. */
export async function openTab(ctx: ToolContext, url: string | undefined): Promise<ToolOutcome> {
  const found = tabsOf(ctx);
  if (!isTabs(found)) return found;
  const address = url === undefined ? null : webAddress(url);
  if (address !== null && typeof address !== "string") return address;
  let tab: TabInfo | null = null;
  const intent = address ? `open ${address} in a new tab` : "open a new tab";
  const performed = await ctx.perform({ kind: "page", run: async () => void (tab = await found.open(address)), intent, passive: true, ...(address ? { opens: address } : {}) });
  return { ok: true, data: { success: true, tab, changed: performed.kind === "acted" && performed.effect?.changed === true } };
}

/** Makes an open tab the active one, through the hands. */
export async function showTab(ctx: ToolContext, id: string): Promise<ToolOutcome> {
  const found = tabsOf(ctx);
  if (!isTabs(found)) return found;
  let tab: TabInfo | null = null;
  await ctx.perform({ kind: "page", run: async () => void (tab = await found.switchTo(id)), intent: `switch to ${id}`, passive: true });
  return { ok: true, data: { success: true, tab } };
}

/** Closes an open tab (not the last), through the hands; the tabs left are its data. */
export async function shutTab(ctx: ToolContext, id: string): Promise<ToolOutcome> {
  const found = tabsOf(ctx);
  if (!isTabs(found)) return found;
  let left: TabInfo[] = [];
  await ctx.perform({ kind: "page", run: async () => void (left = await found.close(id)), intent: `close ${id}`, passive: true });
  return { ok: true, data: { success: true, tabs: left } };
}
