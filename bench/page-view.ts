// The page view on a page set (issue 15): for each page, what one view of it costs the model
// (o200k tokens), how long it takes, how many interactive elements it reaches (and how many of
// those sit under aria-hidden), and the share of its tokens spent on `/url:` lines. The baseline is
// Playwright MCP's browser_snapshot, i.e. `page.ariaSnapshot({ mode: "ai" })`; another view is one
// more entry in VIEWS. Prints a table and writes bench/results/page-view.json; asserts nothing.
import { chromium, type Page } from "playwright-core";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { findChromium } from "../src/computers/browser/find-chromium.ts";
import { ariaTree } from "../src/computers/browser/page-understanding.ts";
import { DEFAULT_VIEW_TOKENS, pageView } from "../src/perception/page-view/view.ts";
import { loadTokenizer } from "../src/perception/page-view/tokens.ts";
import { CHROMIUM_ARGS } from "../test/support/chromium.ts";
import { median, quantile, timed, writeResult } from "./measure.ts";
import { pageSet } from "./page-set.ts";

/** What one view of one page comes to. */
interface ViewFigures {
  tokens: number;
  chars: number;
  /** Median milliseconds to take the view, over RUNS takes. */
  ms: number;
  /** Interactive elements the view names, those under aria-hidden included. */
  interactive: number;
  /** Of `interactive`, those in an aria-hidden subtree. */
  interactiveAriaHidden: number;
  /** Share (0–1) of the view's tokens that are on `/url:` lines. */
  urlTokenShare: number;
  /**
   * Views with parts: the share (0–1) of the snapshot's interactive elements outside aria-hidden
   * that some part names, how many parts that took, and how many refs a view ended inside of.
   */
  reach?: { share: number; parts: number; cutRefs: number };
}

/** One way of showing a page to the model. */
interface PageView {
  name: string;
  measure(page: Page): Promise<ViewFigures>;
}

/** Our view's budget: the product's default, or PAGE_VIEW_TOKENS. */
const VIEW_TOKENS = Number(process.env.PAGE_VIEW_TOKENS ?? DEFAULT_VIEW_TOKENS);
// How many times each view is taken per page, for its time.
const RUNS = 3;
// The saved pages are served from this made-up origin; every other request is refused.
const ORIGIN = "http://pages.bench.test";

const encoder = new Tiktoken(o200k);

/** o200k tokens in `text` (the encoding of GPT-4o and later), special tokens' spellings as plain text, as the page view counts them. */
function countTokens(text: string): number {
  return encoder.encode(text, [], []).length;
}

const INTERACTIVE_ROLES = new Set(["link", "button", "textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "slider", "spinbutton", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "treeitem"]);

/**
 * Counts the interactive elements an ARIA snapshot (Playwright's YAML) names: lines whose role is
 * in INTERACTIVE_ROLES, or `option` under a listbox (a select's options are not counted: the
 * combobox is). A line is under aria-hidden when it or an ancestor line carries `[aria-hidden]`.
 * @example ariaInteractive('- button "Send" [ref=e2]') // { interactive: 1, ariaHidden: 0 }
 */
function ariaInteractive(snapshot: string): { interactive: number; ariaHidden: number } {
  const ancestors: { indent: number; role: string; hidden: boolean }[] = [];
  let interactive = 0;
  let ariaHidden = 0;
  for (const line of snapshot.split("\n")) {
    // A key with YAML-special characters in its name is quoted: `- 'link "a: b" [ref=e3]':`.
    const match = /^(\s*)- ['"]?([a-z]+)\b/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    const role = match[2]!;
    while (ancestors.length && ancestors[ancestors.length - 1]!.indent >= indent) ancestors.pop();
    const parent = ancestors[ancestors.length - 1];
    const hidden = (parent?.hidden ?? false) || line.includes("[aria-hidden]");
    const owner = [...ancestors].reverse().find((a) => a.role === "listbox" || a.role === "combobox");
    if (INTERACTIVE_ROLES.has(role) || (role === "option" && owner?.role === "listbox")) {
      interactive += 1;
      if (hidden) ariaHidden += 1;
    }
    ancestors.push({ indent, role, hidden });
  }
  return { interactive, ariaHidden };
}

/** The share of `text`'s tokens on lines that hold a `/url:` property. */
function urlTokenShare(text: string, tokens = countTokens(text)): number {
  const urlLines = text.split("\n").filter((line) => /^\s*- \/url:/.test(line));
  return tokens ? countTokens(urlLines.join("\n")) / tokens : 0;
}

/** Figures for a view that is YAML in Playwright's ARIA snapshot format. */
function ariaFigures(text: string, times: number[]): ViewFigures {
  const tokens = countTokens(text);
  const { interactive, ariaHidden } = ariaInteractive(text);
  return { tokens, chars: text.length, ms: median(times), interactive, interactiveAriaHidden: ariaHidden, urlTokenShare: urlTokenShare(text, tokens) };
}

/** Playwright MCP's browser_snapshot: the page's ARIA snapshot in "ai" mode (as `ariaTree` takes it). */
async function measureBaseline(page: Page): Promise<ViewFigures> {
  let text = "";
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(await timed(async () => (text = await page.ariaSnapshot({ mode: "ai" }))));
  return ariaFigures(text, times);
}

/** Ours: the first view of the page as ariaTree gives it, and every part after it for the reach. */
async function measureOurs(page: Page): Promise<ViewFigures> {
  await loadTokenizer();
  const facts = { url: page.url(), title: await page.title(), viewport: page.viewportSize()! };
  let first: Awaited<ReturnType<typeof pageView>> | null = null;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(await timed(async () => (first = await pageView((await ariaTree(page)).content, facts, { budget: VIEW_TOKENS }))));
  const view = first!;
  // The reach: every part, until none is left, against the interactive refs of the whole snapshot.
  const snapshot = (await ariaTree(page)).content;
  const wanted = visibleInteractiveRefs(snapshot);
  const reached = new Set<string>();
  let parts = 0;
  let cutRefs = 0;
  for (let part = 1, more = true; more; part++, parts++) {
    const next = await pageView(snapshot, facts, { budget: VIEW_TOKENS, part });
    for (const ref of next.refs) reached.add(ref);
    cutRefs += (next.text.match(/\[ref=(?![a-z0-9]+\])/g) ?? []).length;
    more = next.more;
  }
  const share = wanted.size ? [...wanted].filter((ref) => reached.has(ref)).length / wanted.size : 1;
  return {
    tokens: view.tokens,
    chars: view.text.length,
    ms: median(times),
    interactive: view.interactiveShown,
    interactiveAriaHidden: 0,
    urlTokenShare: 0,
    reach: { share, parts, cutRefs },
  };
}

/** Refs of the interactive elements a snapshot names outside aria-hidden subtrees. */
function visibleInteractiveRefs(snapshot: string): Set<string> {
  const refs = new Set<string>();
  const hiddenAt: number[] = [];
  for (const line of snapshot.split("\n")) {
    const match = /^(\s*)- ['"]?([a-z]+)\b.*?\[ref=([^\]]+)\]/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    while (hiddenAt.length && hiddenAt[hiddenAt.length - 1]! >= indent) hiddenAt.pop();
    if (line.includes("[aria-hidden]")) hiddenAt.push(indent);
    else if (!hiddenAt.length && (INTERACTIVE_ROLES.has(match[2]!) || line.includes("[cursor=pointer]"))) refs.add(match[3]!);
  }
  return refs;
}

const VIEWS: PageView[] = [
  { name: "baseline", measure: measureBaseline },
  { name: "ours", measure: measureOurs },
];

/**
 * What the page holds, whatever the view: its element count and the interactive elements a person
 * could reach (rendered, not inert), the denominator of a view's reach.
 */
async function pageFacts(page: Page): Promise<{ elements: number; domInteractive: number }> {
  return page.evaluate(() => {
    const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, [contenteditable=''], [contenteditable=true], [role=link], [role=button], [role=textbox], [role=searchbox], [role=combobox], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=spinbutton], [role^=menuitem], [role=tab], [role=treeitem], [role=listbox] [role=option]";
    const reachable = [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility({ visibilityProperty: true }) && !el.closest("[inert]"));
    return { elements: document.querySelectorAll("*").length, domInteractive: reachable.length };
  });
}

const pages = await pageSet();
const browser = await chromium.launch({
  executablePath: findChromium(process.env.CHROME_PATH),
  args: ["--no-sandbox", ...CHROMIUM_ARGS],
});

interface PageResult {
  name: string;
  kind: string;
  htmlBytes: number;
  elements: number;
  domInteractive: number;
  blockedRequests: number;
  views: Record<string, ViewFigures>;
}

const results: PageResult[] = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let current = "";
  let blocked = 0;
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url === `${ORIGIN}/${current}`) return route.fulfill({ contentType: "text/html; charset=utf-8", body: pages.find((p) => p.name === current)!.html });
    blocked += 1;
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  printHeader();
  for (const { name, kind, html } of pages) {
    current = name;
    blocked = 0;
    await page.goto(`${ORIGIN}/${name}`, { waitUntil: "load", timeout: 30_000 });
    const facts = await pageFacts(page);
    const views: Record<string, ViewFigures> = {};
    for (const view of VIEWS) views[view.name] = await view.measure(page);
    results.push({ name, kind, htmlBytes: Buffer.byteLength(html), ...facts, blockedRequests: blocked, views });
    printRow(results[results.length - 1]!);
  }
} finally {
  await browser.close();
}

function printHeader(): void {
  console.log(`EasyAgentCU page-view benchmark (1280×800; o200k tokens; ms = median of ${RUNS}; reach = interactive named / reachable in the DOM)`);
  const viewHeads = VIEWS.map((v) => `${`${v.name} tokens`.padStart(16)} ${"ms".padStart(7)} ${"inter.".padStart(7)} ${"hidden".padStart(6)} ${"reach".padStart(6)} ${"url%".padStart(5)}`).join(" ");
  console.log(`  ${"page".padEnd(28)} ${"KB".padStart(6)} ${"elems".padStart(6)} ${"DOM int.".padStart(8)} ${viewHeads}`);
}

function printRow(r: PageResult): void {
  const cells = VIEWS.map((v) => {
    const f = r.views[v.name]!;
    const reach = f.reach ? `${Math.floor(100 * f.reach.share)}%/${f.reach.parts}p` : r.domInteractive ? `${Math.round((100 * f.interactive) / r.domInteractive)}%` : "–";
    return `${String(f.tokens).padStart(16)} ${f.ms.toFixed(1).padStart(7)} ${String(f.interactive).padStart(7)} ${String(f.interactiveAriaHidden).padStart(6)} ${reach.padStart(6)} ${(100 * f.urlTokenShare).toFixed(0).padStart(4)}%`;
  }).join(" ");
  console.log(`  ${r.name.padEnd(28)} ${(r.htmlBytes / 1024).toFixed(0).padStart(6)} ${String(r.elements).padStart(6)} ${String(r.domInteractive).padStart(8)} ${cells}`);
}

const summary: Record<string, Record<string, { medianTokens: number; p90Tokens: number; medianMs: number; p90Ms: number }>> = {};
for (const view of VIEWS) {
  summary[view.name] = {};
  for (const [group, members] of [["all", results], ["saved", results.filter((r) => r.kind === "saved")], ["generated", results.filter((r) => r.kind === "generated")]] as const) {
    const tokens = members.map((r) => r.views[view.name]!.tokens);
    const ms = members.map((r) => r.views[view.name]!.ms);
    summary[view.name]![group] = { medianTokens: median(tokens), p90Tokens: quantile(tokens, 0.9), medianMs: median(ms), p90Ms: quantile(ms, 0.9) };
    console.log(`  ${view.name} over ${group} pages (${members.length}): tokens median ${median(tokens)}, p90 ${quantile(tokens, 0.9)}; ms median ${median(ms)}, p90 ${quantile(ms, 0.9)}`);
  }
}
// Ours against the baseline, page by page: the first view's tokens as a share of the snapshot's.
const ratios = results.map((r) => r.views.ours!.tokens / r.views.baseline!.tokens);
const reaches = results.map((r) => r.views.ours!.reach!);
const comparison = {
  viewTokens: VIEW_TOKENS,
  medianTokenRatio: Math.round(median(ratios) * 1000) / 1000,
  maxTokenRatio: Math.round(Math.max(...ratios) * 1000) / 1000,
  pagesFullyReached: reaches.filter((r) => r.share === 1).length,
  minReach: Math.min(...reaches.map((r) => r.share)),
  cutRefs: reaches.reduce((sum, r) => sum + r.cutRefs, 0),
};
console.log(
  `  ours / baseline tokens: median ${comparison.medianTokenRatio}×, max ${comparison.maxTokenRatio}× (budget ${VIEW_TOKENS}); every interactive element reached through the parts on ${comparison.pagesFullyReached} of ${results.length} pages (lowest ${(100 * comparison.minReach).toFixed(1)}%); refs cut: ${comparison.cutRefs}`,
);
console.log(`  → ${await writeResult("page-view", { runs: RUNS, views: VIEWS.map((v) => v.name), summary, comparison, pages: results })}`);
