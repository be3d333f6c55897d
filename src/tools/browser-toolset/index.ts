// The members of Anthropic's browser toolset that our browser serves, as tools of their own
// (validated, timed, approved and recorded like every tool); the others are withheld from the
// model by the toolset entry's configs (models/anthropic/browser-toolset.ts). Not served: the tab
// members but list_tabs (we drive one tab), file_upload (no files reach the browser yet),
// read_console, read_network and javascript_exec (off by default, and nothing here gates them),
// zoom, the other buttons and the raw pointer and key holds.
import type { AgentTool } from "../tool.ts";
import { formInput, hover, key, leftClick, scroll, scrollTo, typeText } from "./acting.ts";
import { listTabs, navigate, wait } from "./browsing.ts";
import { find, getPageText, readPage, screenshot } from "./reading.ts";

export { RefBook } from "./refs.ts";
export { TAB_ID } from "./member.ts";

const MEMBERS = [navigate, listTabs, readPage, getPageText, find, formInput, scrollTo, screenshot, leftClick, hover, scroll, typeText, key, wait] as AgentTool[];

/** The members offered: screenshot only to a model that takes images. */
export function browserMembers({ vision }: { vision: boolean }): AgentTool[] {
  return MEMBERS.filter((member) => vision || !member.needsVision);
}
