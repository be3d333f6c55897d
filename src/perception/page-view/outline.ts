// The page as a model should read it, before any budget: the snapshot's tree without what a person
// cannot perceive (aria-hidden subtrees, empty boxes) and without wrappers that only nest (unnamed
// generic containers), flattened in document order with what the view orders by — is it
// interactive, is it in the viewport, in a dialog, a form, a landmark.
import type { AriaNode, Box } from "./aria-snapshot.ts";

const INTERACTIVE_ROLES = new Set([
  "link", "button", "textbox", "searchbox", "combobox", "listbox", "option", "checkbox", "radio", "switch", "slider",
  "spinbutton", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "treeitem",
]);
/** Roles that make a section the view can name and show on its own. */
const SECTION_ROLES = new Set(["banner", "navigation", "main", "complementary", "contentinfo", "search", "form", "region", "dialog", "alertdialog"]);
const WRAPPERS = new Set(["generic", "none", "presentation"]);
/** Roles nobody acts on or asks for by ref, so their lines go without one (a ref costs about five tokens). */
const UNREFERENCED = new Set(["generic", "listitem", "paragraph", "row", "rowgroup", "text"]);
/** Longer names and texts are cut at a word, with an ellipsis: the view names things, `extract` reads them. */
const NAME_MAX = 150;
const TEXT_MAX = 200;

export interface Entry {
  node: AriaNode;
  /** Its line, without indentation. */
  line: string;
  depth: number;
  /** Index of its parent entry; -1 at the top. */
  parent: number;
  /** Index of the nearest section (landmark, form, dialog) around it or itself; -1 when none. */
  section: number;
  interactive: boolean;
  /** Lower comes first: 0 in a dialog on screen, 1 on screen, 2 forms and the page's skeleton, 3 interactive, 4 the rest. */
  tier: number;
}

export interface OutlineOptions {
  /** The viewport, CSS pixels: what is inside comes first. */
  viewport: { width: number; height: number };
  /** Show links' addresses (shortened to a path on the page's own site). */
  urls: boolean;
  /** The page's address, to shorten links on its own site. */
  pageUrl: string;
}

export function outline(roots: AriaNode[], options: OutlineOptions): Entry[] {
  const entries: Entry[] = [];
  const origin = safeOrigin(options.pageUrl);
  const visit = (node: AriaNode, depth: number, parent: number, ctx: { section: number; dialog: boolean; form: boolean; inView: boolean }) => {
    if (node.ariaHidden || isEmptyBox(node)) return;
    const inView = node.box ? intersects(node.box, options.viewport) : ctx.inView;
    if (WRAPPERS.has(node.role) && !node.name && !node.pointer && !node.text) {
      for (const child of node.children) visit(child, depth, parent, { ...ctx, inView });
      return;
    }
    const index = entries.length;
    const interactive = INTERACTIVE_ROLES.has(node.role) || node.pointer;
    const isSection = SECTION_ROLES.has(node.role);
    const dialog = ctx.dialog || node.role === "dialog" || node.role === "alertdialog";
    const form = ctx.form || node.role === "form" || node.role === "search";
    const skeleton = isSection || node.role === "heading";
    const tier = dialog && inView ? 0 : inView ? 1 : form || skeleton ? 2 : interactive ? 3 : 4;
    const section = isSection ? index : ctx.section;
    entries.push({ node, line: lineOf(node, options.urls, origin), depth, parent, section, interactive, tier });
    for (const child of node.children) visit(child, depth + 1, index, { section, dialog, form, inView });
  };
  for (const root of roots) visit(root, 0, -1, { section: -1, dialog: false, form: false, inView: false });
  return withoutEchoes(entries);
}

/**
 * Drops the text lines that only repeat the name of the control beside them (a label before its
 * field, the text after a checkbox): the control's line already says it.
 */
function withoutEchoes(entries: Entry[]): Entry[] {
  const words = (e: Entry | undefined) => (e?.interactive ? e.node.name.replace(/\s+/g, " ").trim() : null);
  const echo = entries.map((e, i) => {
    const leaf = entries[i + 1] === undefined || entries[i + 1]!.depth <= e.depth;
    const text = !e.interactive && !e.node.name && (e.node.role === "text" || WRAPPERS.has(e.node.role)) ? e.node.text?.replace(/\s+/g, " ").trim() : undefined;
    return leaf && !!text && (text === words(entries[i - 1]) || text === words(entries[i + 1]));
  });
  if (!echo.includes(true)) return entries;
  const moved: number[] = [];
  const kept: Entry[] = [];
  entries.forEach((e, i) => {
    moved[i] = kept.length;
    if (!echo[i]) kept.push(e);
  });
  const at = (i: number) => (i < 0 ? i : moved[i]!);
  return kept.map((e) => ({ ...e, parent: at(e.parent), section: at(e.section) }));
}

function lineOf(node: AriaNode, urls: boolean, origin: string | null): string {
  if (node.role === "text") return `text: ${short(node.text ?? "", TEXT_MAX)}`;
  const parts = [node.role];
  if (node.name) parts.push(JSON.stringify(short(node.name, NAME_MAX)));
  for (const state of node.states) parts.push(`[${state}]`);
  if (node.props.placeholder && node.props.placeholder !== node.name) parts.push(`[placeholder=${JSON.stringify(short(node.props.placeholder, NAME_MAX))}]`);
  if (node.ref && (node.pointer || !UNREFERENCED.has(node.role))) parts.push(`[ref=${node.ref}]`);
  if (node.pointer && !INTERACTIVE_ROLES.has(node.role)) parts.push("[clickable]");
  if (urls && node.props.url) parts.push(`[url=${shortUrl(node.props.url, origin)}]`);
  const line = parts.join(" ");
  return node.text ? `${line}: ${short(node.text, TEXT_MAX)}` : line;
}

/** Cut at a word before `max` characters, with an ellipsis. */
export function short(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

function shortUrl(url: string, origin: string | null): string {
  try {
    const parsed = new URL(url, origin ?? undefined);
    return origin && parsed.origin === origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href;
  } catch {
    return url;
  }
}

function safeOrigin(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** Laid out with no size and nothing inside: not on the page as a person sees it (an option of a closed select is kept). */
function isEmptyBox(node: AriaNode): boolean {
  return !!node.box && node.box.width === 0 && node.box.height === 0 && node.role !== "option" && node.children.length === 0;
}

function intersects(box: Box, viewport: { width: number; height: number }): boolean {
  return box.width > 0 && box.height > 0 && box.x < viewport.width && box.y < viewport.height && box.x + box.width > 0 && box.y + box.height > 0;
}
