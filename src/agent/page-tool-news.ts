// What the drivers tell their model of the tools the page declares (WebMCP), read before each
// step: the tool agent hears the list whenever it changes (a new page, a tool registered or
// withdrawn), and is offered pageTool to call them from the first it hears of; a planner reads
// the list beside the page's address, as page content, and calls them with its page_tool action.
// A page that cannot be read this moment (it is navigating) tells nothing new.
import type { Computer, PageTool } from "../computers/computer.ts";
import type { Secrets } from "../core/secrets.ts";
import { pageToolLines, pageToolsNote } from "../tools/index.ts";

/** The page's tools now, and its address; null where the computer has no page or it could not be read. */
async function declared(computer: Computer): Promise<{ tools: PageTool[]; url: string } | null> {
  if (!computer.web) return null;
  try {
    const [tools, url] = await Promise.all([computer.web.pageTools(), computer.currentUrl()]);
    return { tools, url: url ?? "" };
  } catch {
    return null;
  }
}

export class PageToolNews {
  /** The list last told, as JSON: a page with no tools is not worth a word until it had some. */
  private told = "[]";
  /** A page of the task has declared tools: pageTool is offered from then on. */
  heard = false;

  constructor(
    private readonly computer: Computer,
    private readonly secrets: Secrets,
  ) {}

  /** The note for the tool agent when the page's tools differ from those it was told last; null otherwise. */
  async news(): Promise<string | null> {
    const now = await declared(this.computer);
    if (!now) return null;
    const list = JSON.stringify(now.tools);
    if (list === this.told) return null;
    this.told = list;
    this.heard ||= now.tools.length > 0;
    return this.secrets.conceal(pageToolsNote(now.url, now.tools));
  }
}

/** The page's tools as a planner reads them, with the page: null when it declares none. */
export async function plannerPageTools(computer: Computer, secrets: Secrets): Promise<string | null> {
  const now = await declared(computer);
  const lines = now ? pageToolLines(now.tools) : null;
  return lines ? secrets.conceal(lines) : null;
}
