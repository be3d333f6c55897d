// Anthropic's browser toolset as its published reference declares it (the SDKs' `BrowserToolset20260801`
// and `browser-toolset.md`): one nameless `tools` entry, no beta header; each of its 31 members is
// called as a tool of its own (`name` the member, `toolset_name: "browser"`) and answered by a
// `tool_result` that names the family again, with a `browser_state` block (the open tabs) when it
// did not fail. A member is on unless `configs` turns it off, except four that are off unless turned on.
import { claudeModel } from "./claude-models.ts";

export const BROWSER_TOOLSET_TYPE = "browser_toolset_20260801";
/** What the member calls carry as `toolset_name`, and their results echo. */
export const BROWSER_FAMILY = "browser";

/** Every member of this toolset version, as the `configs` keys and the `tool_use` names spell them. */
export const BROWSER_MEMBERS = [
  "navigate",
  "list_tabs",
  "new_tab",
  "switch_tab",
  "close_tab",
  "read_page",
  "get_page_text",
  "read_console",
  "read_network",
  "find",
  "form_input",
  "file_upload",
  "scroll_to",
  "screenshot",
  "zoom",
  "left_click",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "hover",
  "left_click_drag",
  "left_mouse_down",
  "left_mouse_up",
  "mouse_move",
  "scroll",
  "type",
  "key",
  "hold_key",
  "wait",
  "javascript_exec",
] as const;
export type BrowserMember = (typeof BROWSER_MEMBERS)[number];

/** Members the API withholds unless `configs` enables them. */
const OFF_BY_DEFAULT: ReadonlySet<BrowserMember> = new Set(["file_upload", "read_console", "read_network", "javascript_exec"]);

export interface BrowserToolsetEntry {
  type: typeof BROWSER_TOOLSET_TYPE;
  /** Only the members whose default we change; `enabled: false` withholds a member from the model. */
  configs?: Partial<Record<BrowserMember, { enabled: boolean }>>;
}

/**
 * The `tools` entry offering exactly the members we serve: every member that is on by default and
 * not served is turned off, so the model is never offered what would only be refused.
 */
export function browserToolsetEntry(served: ReadonlySet<string>): BrowserToolsetEntry {
  const configs: Partial<Record<BrowserMember, { enabled: boolean }>> = {};
  for (const member of BROWSER_MEMBERS) {
    const wanted = served.has(member);
    if (wanted === OFF_BY_DEFAULT.has(member)) configs[member] = { enabled: wanted };
  }
  return Object.keys(configs).length > 0 ? { type: BROWSER_TOOLSET_TYPE, configs } : { type: BROWSER_TOOLSET_TYPE };
}

/** Whether a Claude model takes the 2026-08-01 toolsets: the models the computer toolset is chosen for. */
export function takesBrowserToolset(model: string): boolean {
  return claudeModel(model).tool === "computer_toolset_20260801";
}
