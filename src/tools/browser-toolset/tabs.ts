// The browser toolset's tab members: new_tab, switch_tab and close_tab, done as the tool agent's
// own tab tools do them (tools/tabs.ts: through the hands, a new tab's address judged as goto's).
// What the tabs are after each, the driver reports with the result (`browser_state`).
import { z } from "zod";
import { openTab, shutTab, showTab } from "../tabs.ts";
import { BOTH, defineTool, labelled, type ToolOutcome } from "../tool.ts";

const tabIdInput = z.string().min(1).describe("A tab's id, as browser_state lists it (tab_2).");

/** A tab outcome as a member's result reads: its words, the tabs coming with it. */
function said(outcome: ToolOutcome, text: string): ToolOutcome {
  return outcome.ok ? { ...outcome, text } : outcome;
}

export const newTabMember = defineTool({
  name: "new_tab",
  description: "Open a new tab, at an address when one is given (https:// when it names no scheme); it becomes the active tab.",
  input: z.object({ url: z.string().min(1).optional() }),
  modes: BOTH,
  computers: ["browser"],
  label: ({ url }) => (url ? labelled("new_tab", url) : "new_tab"),
  run: async ({ url }, ctx) => said(await openTab(ctx, url), `Opened a new tab${url ? ` at ${url}` : ""}; it is the active tab.`),
});

export const switchTabMember = defineTool({
  name: "switch_tab",
  description: "Make another open tab the active one: the members act on it from then on.",
  input: z.object({ tab_id: tabIdInput }),
  modes: BOTH,
  computers: ["browser"],
  label: ({ tab_id }) => labelled("switch_tab", tab_id),
  run: async ({ tab_id }, ctx) => said(await showTab(ctx, tab_id), `Switched to ${tab_id}.`),
});

export const closeTabMember = defineTool({
  name: "close_tab",
  description: "Close an open tab, not the last one; when it was active, the tab active before it is active again.",
  input: z.object({ tab_id: tabIdInput }),
  modes: BOTH,
  computers: ["browser"],
  label: ({ tab_id }) => labelled("close_tab", tab_id),
  run: async ({ tab_id }, ctx) => said(await shutTab(ctx, tab_id), `Closed ${tab_id}.`),
});
