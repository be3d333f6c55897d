// The browser toolset's reading members, answered from our page view: read_page (the outline with
// the toolset's refs, a subtree by ref, a depth, interactive elements only), find (the elements
// whose names hold the words asked for), get_page_text (the reader text) and screenshot.
import { z } from "zod";
import { modelView } from "../../perception/model-image.ts";
import { BOTH, defineTool, failed, labelled, pageOf, type ToolContext, type ToolOutcome } from "../tool.ts";
import { isGone, otherTab, ourRef, tabIdSchema } from "./member.ts";
import { goneMessage } from "./refs.ts";

/** read_page's budget: about the 50,000 characters its reference caps a read at. */
const READ_TOKENS = 12_000;
const FIND_TOKENS = 4_000;
const FIND_LIMIT = 20;
const DEFAULT_DEPTH = 15;
/** Text the model reads from get_page_text, at most: what the tool agent's context keeps of any result. */
const PAGE_TEXT_MAX = 10_000;
const CLOSING = "[Not in this view";
/** Roles a person acts on: what `filter: "interactive"` keeps. */
const INTERACTIVE = /^\s*- (link|button|textbox|searchbox|combobox|listbox|option|checkbox|radio|switch|slider|spinbutton|menuitem\w*|tab|treeitem)\b/;

/** A view's text as its parts: the header line, the outline's lines, and the closing lines that say what was left out. */
function partsOf(text: string): { header: string; body: string[]; closing: string[] } {
  const [header = "", ...rest] = text.split("\n");
  const at = rest.findIndex((line) => line.startsWith(CLOSING));
  return at < 0 ? { header, body: rest, closing: [] } : { header, body: rest.slice(0, at), closing: rest.slice(at) };
}

/** The title a view's header names: `Page — "Title" https://…`. */
function titleOf(header: string): string {
  const quoted = /— ("(?:[^"\\]|\\.)*") /.exec(header)?.[1];
  try {
    return quoted ? (JSON.parse(quoted) as string) : "";
  } catch {
    return "";
  }
}

/** The closing lines in the toolset's terms: a section by its ref, the rest by read_page or find. */
function closingFor(closing: string[], ctx: ToolContext): string[] {
  return closing.map((line) => {
    if (line.startsWith("To see them")) return "To see them, call read_page with {\"ref\": …} for one of these sections, or find to look for elements by what they are.]";
    return line.replace(/\{"section":"([^"]+)"\}/, (_, ours: string) => `{"ref":"${ctx.refs.nameOf(ours, line)}"}`);
  });
}

export const readPage = defineTool({
  name: "read_page",
  description:
    "Return the page's accessibility tree (or the subtree of one element), each element with a reference like [ref_7] that later actions can target. What is on screen and in dialogs comes first; a long page closes with the sections left out.",
  input: z.object({
    filter: z.enum(["interactive", "all"]).optional().describe('"interactive": only elements a person acts on; "all" or omitted: every element.'),
    depth: z.number().int().min(1).optional().describe("Maximum tree depth. Default 15."),
    ref: z.string().optional().describe("An element reference to read the subtree of; the page root when omitted."),
    tab_id: tabIdSchema,
  }),
  modes: BOTH,
  looks: true,
  label: ({ ref, filter }) => ["read_page", ref ?? "", filter === "interactive" ? "interactive" : ""].filter(Boolean).join(" "),
  async run({ filter, depth = DEFAULT_DEPTH, ref, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    let section: string | undefined;
    if (ref) {
      const resolved = await ourRef(ctx, ref);
      if (!resolved.ok) return failed("INVALID_TARGET", resolved.message);
      section = resolved.ours;
    }
    let view;
    try {
      view = await pageOf(ctx).view({ ...(section ? { section } : {}), budget: READ_TOKENS });
    } catch (error) {
      if (ref && isGone(error)) return failed("INVALID_TARGET", goneMessage(ref));
      throw error;
    }
    const { header, body, closing } = partsOf(view.text);
    const indent = (line: string) => (/^ */.exec(line)?.[0].length ?? 0) / 2;
    const kept = body.filter((line) => indent(line) < depth && (filter !== "interactive" || INTERACTIVE.test(line)));
    const lines = filter === "interactive" ? kept.map((line) => line.trimStart()) : kept;
    const named = ctx.refs.name([header, ...lines].join("\n"), view.url);
    const text = [named, ...closingFor(closing, ctx)].join("\n");
    return { ok: true, data: { pageUrl: view.url, title: titleOf(header), elements: `${view.interactiveShown} of ${view.interactiveTotal} interactive`, more: view.more }, text };
  },
});

export const find = defineTool({
  name: "find",
  description: `Find the elements whose names or text hold the words of a description ("search field", "add to cart button"): up to ${FIND_LIMIT}, each with its reference.`,
  input: z.object({ query: z.string().min(1).describe("What to find, in words the page shows."), tab_id: tabIdSchema }),
  modes: BOTH,
  looks: true,
  label: ({ query }) => labelled("find", query),
  async run({ query, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    const view = await pageOf(ctx).view({ query, budget: FIND_TOKENS });
    const { header, body } = partsOf(view.text);
    const found = body.filter((line) => line.includes("[ref=")).slice(0, FIND_LIMIT).map((line) => line.trimStart());
    if (found.length === 0) return { ok: true, data: { pageUrl: view.url, found: 0 }, text: `No element on the page has the words of ${JSON.stringify(query)} in its name or text; call read_page to see the page.` };
    return { ok: true, data: { pageUrl: view.url, title: titleOf(header), found: found.length }, text: ctx.refs.name([header, ...found].join("\n"), view.url) };
  },
});

export const getPageText = defineTool({
  name: "get_page_text",
  description: "Return the page's readable text (its article first), for reading pages made of text.",
  input: z.object({ tab_id: tabIdSchema }),
  modes: BOTH,
  looks: true,
  async run({ tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    const page = await pageOf(ctx).readability(ctx.saveArtifact);
    const pageUrl = await ctx.computer.currentUrl();
    const title = page.title ?? "";
    const whole = page.text ?? (page.artifactId ? await ctx.readArtifact(page.artifactId) : null);
    if (whole === null) return failed("ACTION_FAILED", `The page's text could not be read back (${page.contentLengthBytes} bytes). Use find, or read_page with a ref, to read part of it.`);
    const data = { pageUrl, title, bytes: page.contentLengthBytes };
    if (whole.length <= PAGE_TEXT_MAX) return { ok: true, data, text: [title, whole.trim() || "(The page has no readable text.)"].filter(Boolean).join("\n\n") };
    // The whole text is kept for the person (the artifacts route): a reader text over 256 KB is saved already.
    const artifactId = page.artifactId ?? (await ctx.saveArtifact(whole));
    // Said first: the context keeps the start of a long result, and cuts its end.
    const note = `[The page's text is ${whole.length} characters, saved whole as artifact ${artifactId}; its start follows. Use find, or read_page with a ref, for the rest.]`;
    return { ok: true, data: { ...data, artifactId }, text: [note, title, `${whole.slice(0, PAGE_TEXT_MAX)}…`].filter(Boolean).join("\n\n") };
  },
});

export const screenshot = defineTool({
  name: "screenshot",
  description: "Capture the browser's viewport. Coordinate targets are pixels of the latest screenshot.",
  input: z.object({ tab_id: tabIdSchema }),
  modes: BOTH,
  looks: true,
  needsVision: true,
  async run({ tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    const shot = await ctx.computer.screenshot();
    const view = await modelView(shot, ctx.computer.logicalSize, ctx.imageMax, ctx.jpegQuality);
    return { ok: true, data: { width: view.image.width, height: view.image.height, pageUrl: await ctx.computer.currentUrl() }, text: "", image: { shot: view.image, spaces: view.spaces } };
  },
});
