// The members of Anthropic's browser toolset that our browser serves, as tools of their own
// (validated, timed, approved and recorded like every tool); the others are withheld from the
// model by the toolset entry's configs (models/anthropic/browser-toolset.ts). The tab members are
// served only in a browser of the agent's own, the one whose tabs are its to use; file_upload takes
// only the person's attachments, by name. Not served: read_console, read_network and
// javascript_exec (off by default, and nothing here gates them), zoom, the other buttons and the
// raw pointer and key holds.
import type { AgentTool, ComputerKind } from "../tool.ts";
import { formInput, hover, key, leftClick, scroll, scrollTo, typeText } from "./acting.ts";
import { listTabs, navigate, wait } from "./browsing.ts";
import { find, getPageText, readPage, screenshot } from "./reading.ts";
import { closeTabMember, newTabMember, switchTabMember } from "./tabs.ts";
import { fileUpload } from "./uploading.ts";

export { RefBook } from "./refs.ts";
export { TAB_ID } from "./member.ts";

const MEMBERS = [navigate, listTabs, newTabMember, switchTabMember, closeTabMember, readPage, getPageText, find, formInput, fileUpload, scrollTo, screenshot, leftClick, hover, scroll, typeText, key, wait] as AgentTool[];

/** The members offered: screenshot only to a model that takes images, the tab members only in our own browser. */
export function browserMembers({ vision, computer }: { vision: boolean; computer: ComputerKind }): AgentTool[] {
  return MEMBERS.filter((member) => (vision || !member.needsVision) && member.computers.includes(computer));
}
