// What the scripted Messages endpoint refuses in a request that declares Anthropic's browser toolset,
// as its published reference describes the wire (the SDKs' `BrowserToolset20260801`,
// `BrowserStateBlockParam` and `ToolResultBlockParam`): the entry has no name and only its own
// fields, `configs` keys are member names with `enabled`/`defer_loading`; a member's tool_use is
// answered by a tool_result naming the same family, with at most one `browser_state` block, never on
// an error, listing every tab with exactly one active.

const MEMBERS = new Set(
  "navigate list_tabs new_tab switch_tab close_tab read_page get_page_text read_console read_network find form_input file_upload scroll_to screenshot zoom left_click right_click middle_click double_click triple_click hover left_click_drag left_mouse_down left_mouse_up mouse_move scroll type key hold_key wait javascript_exec".split(" "),
);
const ENTRY_FIELDS = new Set(["type", "configs", "allowed_callers", "cache_control"]);
const CONFIG_FIELDS = new Set(["enabled", "defer_loading"]);

type Block = { type?: string; id?: string; name?: string; toolset_name?: string; tool_use_id?: string; is_error?: boolean; content?: unknown; tabs?: unknown };
type Body = { tools?: Record<string, unknown>[]; messages?: { role: string; content: unknown }[] };

/** Why the API would refuse this request, or null. Requests without the browser toolset are not judged here. */
export function browserToolsetProblem(body: Body): string | null {
  const entry = body.tools?.find((tool) => tool.type === "browser_toolset_20260801");
  if (!entry) return null;
  for (const key of Object.keys(entry)) if (!ENTRY_FIELDS.has(key)) return `tools.0.${key}: Extra inputs are not permitted`;
  const configs = entry.configs as Record<string, Record<string, unknown>> | undefined | null;
  for (const [member, config] of Object.entries(configs ?? {})) {
    if (!MEMBERS.has(member)) return `tools.0.configs.${member}: Extra inputs are not permitted`;
    for (const [field, value] of Object.entries(config ?? {})) {
      if (!CONFIG_FIELDS.has(field)) return `tools.0.configs.${member}.${field}: Extra inputs are not permitted`;
      if (typeof value !== "boolean" && value !== null) return `tools.0.configs.${member}.${field}: Input should be a valid boolean`;
    }
  }
  const families = new Map<string, string>();
  for (const [m, message] of (body.messages ?? []).entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Block[]) {
      if (block.type === "tool_use" && block.toolset_name) families.set(block.id ?? "", block.toolset_name);
      if (block.type !== "tool_result" || !families.has(block.tool_use_id ?? "")) continue;
      const where = `messages.${m}: tool_result for ${block.tool_use_id}`;
      if (block.toolset_name !== families.get(block.tool_use_id ?? "")) return `${where} must carry toolset_name "${families.get(block.tool_use_id ?? "")}"`;
      const content = Array.isArray(block.content) ? (block.content as Block[]) : [];
      const states = content.filter((b) => b.type === "browser_state");
      if (states.length > 1) return `${where} has more than one browser_state block`;
      if (states.length > 0 && block.is_error) return `${where} is an error and may not carry a browser_state block`;
      if (content.some((b) => b.type === "text" && !(b as { text?: string }).text)) return `${where} has an empty text block`;
      const tabs = states[0]?.tabs;
      if (states.length > 0 && !validTabs(tabs)) return `${where}: browser_state.tabs must list tabs with tab_id, title and url, exactly one active`;
    }
  }
  return null;
}

function validTabs(tabs: unknown): boolean {
  if (!Array.isArray(tabs)) return false;
  const fields = (tab: Record<string, unknown>) => ["tab_id", "title", "url"].every((k) => typeof tab[k] === "string");
  return tabs.every((tab) => fields(tab as Record<string, unknown>)) && (tabs.length === 0 || tabs.filter((tab) => (tab as { active?: unknown }).active === true).length === 1);
}
