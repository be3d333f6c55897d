// The page view a model reads (issue 15): the outline of the page within a budget of tokens, what
// matters first (a dialog on screen, the viewport, forms and the page's skeleton, the other
// controls, then text), never cut inside a line, and closing with what was left out and the
// arguments that show it — the next part, one section, or a search by name.
import { AppError } from "../../core/errors.ts";
import { parseAriaSnapshot } from "./aria-snapshot.ts";
import { outline, short, type Entry } from "./outline.ts";
import { tokenCounter } from "./tokens.ts";

export const DEFAULT_VIEW_TOKENS = 3_000;
/** Sections named in the closing lines, at most, as far as their share of the budget allows. */
const SECTIONS_LISTED = 8;
const CLOSING_MIN = 120;
const CLOSING_MAX = 400;

export interface ViewRequest {
  /** 1 is the first view; the next part holds what the parts before left out. */
  part?: number;
  /** The ref of a section (or any element): only its subtree. */
  section?: string;
  /** Words: only the elements whose name or text holds them, best matches first. */
  query?: string;
  /** Words that order the view (an element chooser's instruction): matches first, then the usual order. */
  prefer?: string;
  urls?: boolean;
  /** Tokens (o200k); the closing lines are inside it. */
  budget?: number;
}

export interface PageFacts {
  url: string;
  title: string;
  /** CSS pixels. */
  viewport: { width: number; height: number };
}

export interface PageView {
  text: string;
  tokens: number;
  /** Lines of the page this view shows (its header and closing lines not counted). */
  lines: number;
  /** Refs of the elements this view shows. */
  refs: string[];
  interactiveShown: number;
  interactiveTotal: number;
  /** Another part follows. */
  more: boolean;
}

export async function pageView(snapshot: string, page: PageFacts, request: ViewRequest = {}): Promise<PageView> {
  const count = await tokenCounter();
  const budget = request.budget ?? DEFAULT_VIEW_TOKENS;
  const part = Math.max(1, Math.floor(request.part ?? 1));
  const entries = outline(parseAriaSnapshot(snapshot), { viewport: page.viewport, urls: request.urls ?? false, pageUrl: page.url });
  const scope = scopeOf(entries, request.section);
  const order = ordered(entries, scope, request);
  const header = headerOf(page, request, part);
  // The closing lines get a fixed share, so that every part leaves the same room to the lines before them.
  const reserve = Math.max(CLOSING_MIN, Math.min(CLOSING_MAX, Math.floor(budget / 5)));
  let left = order;
  let shown = new Set<number>();
  for (let p = 1; p <= part && left.length; p++) {
    // Each part as it was (or will be) sent, with its own header.
    shown = fill(entries, scope, left, budget - count(headerOf(page, request, p)) - reserve, count);
    left = left.filter((i) => !shown.has(i));
  }
  const body = [...shown].sort((a, b) => a - b).map((i) => `${"  ".repeat(entries[i]!.depth - scope.depth)}- ${entries[i]!.line}`);
  const closing = left.length ? closingOf(entries, left, request, part, reserve, count) : [];
  const text = [header, ...body, ...closing].join("\n");
  const inScope = scope.indices.filter((i) => entries[i]!.interactive);
  return {
    text,
    tokens: count(text),
    lines: shown.size,
    refs: [...text.matchAll(/\[ref=([^\]]+)\]/g)].map((m) => m[1]!),
    interactiveShown: [...shown].filter((i) => entries[i]!.interactive).length,
    interactiveTotal: inScope.length,
    more: left.length > 0,
  };
}

interface Scope {
  indices: number[];
  depth: number;
  /** The entries above the scope's root, not shown. */
  root: number;
}

function scopeOf(entries: Entry[], section: string | undefined): Scope {
  if (!section) return { indices: entries.map((_, i) => i), depth: 0, root: -1 };
  const root = entries.findIndex((e) => e.node.ref === section);
  if (root < 0) throw new AppError("INVALID_TARGET", `No element ${section} is on the page now; take ariaTree without a section to see what is there.`);
  let end = root + 1;
  while (end < entries.length && entries[end]!.depth > entries[root]!.depth) end++;
  return { indices: Array.from({ length: end - root }, (_, k) => root + k), depth: entries[root]!.depth, root };
}

/** The entries in the order the view takes them. */
function ordered(entries: Entry[], scope: Scope, request: ViewRequest): number[] {
  const words = wordsOf(request.query ?? request.prefer ?? "");
  const score = words.length ? (i: number) => matchScore(entries[i]!, words) : () => 0;
  const pool = request.query && words.length ? scope.indices.filter((i) => score(i) > 0) : scope.indices;
  const keyed = pool.map((i) => ({ i, s: score(i), t: entries[i]!.tier }));
  keyed.sort((a, b) => b.s - a.s || a.t - b.t || a.i - b.i);
  return keyed.map((k) => k.i);
}

/** Takes entries in order while they fit, each with the lines above it that place it. */
function fill(entries: Entry[], scope: Scope, order: number[], budget: number, count: (text: string) => number): Set<number> {
  const shown = new Set<number>();
  let used = 0;
  const cost = (i: number) => count(`${"  ".repeat(entries[i]!.depth - scope.depth)}- ${entries[i]!.line}\n`);
  for (const i of order) {
    if (shown.has(i)) continue;
    const chain: number[] = [];
    for (let at = i; at >= 0 && at >= scope.indices[0]! && !shown.has(at); at = entries[at]!.parent) chain.push(at);
    const needed = chain.reduce((sum, at) => sum + cost(at), 0);
    // In order or not at all: a part is a prefix of what is left. One entry always goes in, so that every part moves on.
    if (used + needed > budget && shown.size > 0) break;
    for (const at of chain) shown.add(at);
    used += needed;
  }
  return shown;
}

function headerOf(page: PageFacts, request: ViewRequest, part: number): string {
  const what = request.query ? `Elements matching ${JSON.stringify(request.query)}` : request.section ? `Section ${request.section}` : "Page";
  return `${what}${part > 1 ? `, part ${part}` : ""} — ${page.title ? `${JSON.stringify(short(page.title, 100))} ` : ""}${page.url}`;
}

/** What the view left out, where it is, and how to ask for it, within `room` tokens. */
function closingOf(entries: Entry[], left: number[], request: ViewRequest, part: number, room: number, count: (text: string) => number): string[] {
  const interactive = left.filter((i) => entries[i]!.interactive);
  const bySection = new Map<number, Map<string, number>>();
  for (const i of interactive) {
    const roles = bySection.get(entries[i]!.section) ?? new Map<string, number>();
    const role = entries[i]!.node.pointer && !/link|button/.test(entries[i]!.node.role) ? "clickable" : entries[i]!.node.role;
    roles.set(role, (roles.get(role) ?? 0) + 1);
    bySection.set(entries[i]!.section, roles);
  }
  const total = (roles: Map<string, number>) => [...roles.values()].reduce((a, b) => a + b, 0);
  const listed = [...bySection.entries()]
    .filter(([section]) => section >= 0 && entries[section]!.node.ref && entries[section]!.node.ref !== request.section)
    .sort((a, b) => total(b[1]) - total(a[1]))
    .slice(0, SECTIONS_LISTED)
    .sort((a, b) => a[0] - b[0])
    .map(([section, roles]) => {
      const node = entries[section]!.node;
      const counts = [...roles.entries()].sort((a, b) => b[1] - a[1]).map(([role, n]) => `${n} ${role}${n === 1 ? "" : plural(role)}`);
      return `- ${node.role}${node.name ? ` ${JSON.stringify(short(node.name, 40))}` : ""} {"section":"${node.ref}"}: ${counts.slice(0, 3).join(", ")}${counts.length > 3 ? ", …" : ""}`;
    });
  const next = JSON.stringify({
    ...(request.section ? { section: request.section } : {}),
    ...(request.query ? { query: request.query } : {}),
    ...(request.urls ? { urls: true } : {}),
    part: part + 1,
  });
  const first = `[Not in this view: ${left.length} more lines, ${interactive.length} of them interactive${listed.length ? ", in:" : "."}`;
  const last = `To see them, call ariaTree with ${next} for the next part${request.section ? "" : ', {"section": ref} for one section'}, or {"query": "words"} to find elements by name.]`;
  let used = count(first) + count(last) + 2;
  const fitting = listed.filter((line) => (used += count(line) + 1) <= room);
  return [first, ...fitting, last];
}

const plural = (role: string) => (role.endsWith("x") ? "es" : "s");

const STOP_WORDS = new Set(
  "a an the to into onto on in of and or for with at by from is it its this that then please click tap press type enter fill select choose pick check uncheck hover".split(" "),
);

/** The words of a query, lowercase, without the ones every instruction has. */
export function wordsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [])].filter((w) => !STOP_WORDS.has(w));
}

/** Twice the words the entry's name or text holds, and one for its role when that is named too; 0 without a word in its text. */
function matchScore(entry: Entry, words: string[]): number {
  const node = entry.node;
  const hay = `${node.name} ${node.text ?? ""} ${node.props.placeholder ?? ""}`.toLowerCase();
  let inText = 0;
  let roles = 0;
  for (const word of words) {
    if (hay.includes(word)) inText++;
    else if (node.role.startsWith(word) || (word === "field" && /textbox|searchbox|combobox/.test(node.role))) roles++;
  }
  return inText ? 2 * inText + roles : 0;
}
