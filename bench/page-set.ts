// The pages the page-view benchmark reads: app-like pages generated to a size (1k and 7k elements)
// and real-world pages saved under bench/pages (their origins and licences in SOURCES.md).
import { readdir, readFile } from "node:fs/promises";

export interface BenchPage {
  name: string;
  html: string;
  kind: "generated" | "saved";
}

/** The element counts the generated pages are made to. */
export const GENERATED_SIZES = [1_000, 7_000];

/**
 * Every page of the set: the generated ones first, then the saved ones by name.
 * @example for (const { name, html } of await pageSet()) await load(name, html);
 */
export async function pageSet(): Promise<BenchPage[]> {
  const generated = GENERATED_SIZES.map((nodes): BenchPage => ({ name: `generated-${nodes / 1000}k`, html: generatedPage(nodes), kind: "generated" }));
  const dir = new URL("./pages/", import.meta.url);
  const files = (await readdir(dir)).filter((file) => file.endsWith(".html")).sort();
  const saved = await Promise.all(files.map(async (file): Promise<BenchPage> => ({ name: file.slice(0, -".html".length), html: await readFile(new URL(file, dir), "utf8"), kind: "saved" })));
  return [...generated, ...saved];
}

/**
 * An app-like page of about `nodes` DOM elements, the same every time for the same size: a header
 * with navigation and a search form, a sidebar, a table of items with row actions (their menus
 * closed with `hidden`), a settings form with varied fields, a footer, decorative icons under
 * `aria-hidden`, parts hidden with `display:none`, a closed modal and an open cookie notice. The
 * table takes whatever the fixed parts leave of the budget.
 * @example generatedPage(1000).match(/<[a-z]/g)?.length // ≈ 1000
 */
export function generatedPage(nodes: number): string {
  const random = seeded(nodes);
  const frame = (rows: string) => page(random, rows);
  const fixed = elementCount(frame(""));
  const perRow = elementCount(itemRow(seeded(1), 0));
  const rowCount = Math.max(1, Math.round((nodes - fixed) / perRow));
  const rows = Array.from({ length: rowCount }, (_, i) => itemRow(random, i)).join("\n");
  return frame(rows);
}

function elementCount(html: string): number {
  return html.match(/<[a-z][a-z0-9-]*/gi)?.length ?? 0;
}

type Random = () => number;

/** A small deterministic generator (a 32-bit xorshift), so a size always gives the same page. */
function seeded(seed: number): Random {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const ADJECTIVES = ["Quarterly", "Annual", "Regional", "Draft", "Shared", "Archived", "Pending", "Urgent", "Internal", "Customer", "Legacy", "Nightly"];
const NOUNS = ["report", "invoice", "roadmap", "budget", "contract", "release", "survey", "backlog", "forecast", "audit", "migration", "onboarding"];
const PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen", "Ken Thompson", "Radia Perlman"];
const STATUSES = ["Open", "In review", "Blocked", "Done", "Scheduled"];
const TEAMS = ["Design", "Engineering", "Finance", "Legal", "Marketing", "Operations", "Research", "Sales", "Support"];

function icon(shape: string): string {
  return `<svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="${shape}"></path></svg>`;
}

function itemRow(random: Random, i: number): string {
  const title = `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)} ${100 + i}`;
  const day = 1 + Math.floor(random() * 28);
  const month = 1 + Math.floor(random() * 12);
  const date = `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return `<tr>
  <td><input type="checkbox" aria-label="Select ${title}"></td>
  <td><a href="/items/${1000 + i}">${title}</a> <span class="muted">#${1000 + i}</span></td>
  <td><span class="badge">${pick(random, STATUSES)}</span></td>
  <td>${pick(random, PEOPLE)}</td>
  <td><time datetime="${date}">${date}</time></td>
  <td class="actions"><button type="button">Edit</button><button type="button" aria-haspopup="menu" aria-expanded="false" aria-label="More actions for ${title}">${icon("M2 8h12")}</button>
    <ul role="menu" hidden><li role="none"><button role="menuitem">Duplicate</button></li><li role="none"><button role="menuitem">Move</button></li><li role="none"><button role="menuitem">Delete</button></li></ul></td>
</tr>`;
}

function page(random: Random, rows: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Workspace items — Acme Projects</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2433; }
  header { display: flex; align-items: center; gap: 16px; padding: 8px 16px; background: #17324d; color: white; }
  header a { color: white; }
  .layout { display: grid; grid-template-columns: 220px 1fr; }
  aside { padding: 12px; border-right: 1px solid #ddd; }
  main { padding: 16px; }
  table { border-collapse: collapse; width: 100%; }
  td, th { border-bottom: 1px solid #eee; padding: 4px 8px; text-align: left; }
  .muted { color: #6b7280; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .badge { border-radius: 8px; padding: 0 6px; background: #e5e7eb; }
  .promo, .mobile-nav { display: none; }
  .cookie { position: fixed; bottom: 0; left: 0; right: 0; background: #fffbe6; padding: 8px 16px; border-top: 1px solid #e0c97f; }
  .modal { display: none; position: fixed; inset: 20% 30%; background: white; border: 1px solid #999; }
</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header()}
<div class="layout">
${sidebar()}
<main id="main">
  <nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/workspaces">Workspaces</a></li><li aria-current="page">Items</li></ol></nav>
  <h1>Items</h1>
  <div class="promo"><p>Try the new board view!</p><a href="/board">Open board</a><button type="button">Dismiss</button></div>
  ${toolbar()}
  <table>
    <caption class="muted">Items in this workspace</caption>
    <thead><tr><th scope="col"><input type="checkbox" aria-label="Select all"></th><th scope="col"><button type="button">Title ${icon("M4 6l4 4 4-4")}</button></th><th scope="col">Status</th><th scope="col">Owner</th><th scope="col"><button type="button">Due ${icon("M4 6l4 4 4-4")}</button></th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>
${rows}
    </tbody>
  </table>
  <nav aria-label="Pagination"><a href="?page=1" aria-current="page">1</a> <a href="?page=2">2</a> <a href="?page=3">3</a> <a href="?page=2" rel="next">Next</a></nav>
  ${settingsForm(random)}
</main>
</div>
${footer()}
${modal()}
<div class="cookie" role="dialog" aria-label="Cookie consent">
  <p>We use cookies to keep you signed in. <a href="/privacy">Privacy policy</a></p>
  <button type="button">Accept</button> <button type="button">Reject non-essential</button> <button type="button">Settings</button>
</div>
</body>
</html>
`;
}

function header(): string {
  const links = ["Dashboard", "Projects", "Items", "Reports", "Calendar", "Team"];
  return `<header>
  <a href="/" aria-label="Acme Projects home">${icon("M1 1h14v14H1z")}<span>Acme</span></a>
  <nav aria-label="Main"><ul>${links.map((l, i) => `<li><a href="/${l.toLowerCase()}"${i === 2 ? ' aria-current="page"' : ""}>${l}</a></li>`).join("")}</ul></nav>
  <form role="search" action="/search"><label for="q">Search</label><input id="q" type="search" name="q" placeholder="Search items, people, files"><button type="submit">${icon("M7 2a5 5 0 1 0 0 10A5 5 0 0 0 7 2z")}<span class="visually-hidden">Search</span></button></form>
  <button type="button" aria-label="Notifications (3)">${icon("M8 1v2")}<span aria-hidden="true" class="count">3</span></button>
  <button type="button" aria-haspopup="menu" aria-expanded="false">Ada Lovelace</button>
  <ul role="menu" hidden><li role="none"><a role="menuitem" href="/profile">Profile</a></li><li role="none"><a role="menuitem" href="/settings">Settings</a></li><li role="none"><a role="menuitem" href="/logout">Sign out</a></li></ul>
  <nav class="mobile-nav" aria-label="Mobile"><ul>${links.map((l) => `<li><a href="/${l.toLowerCase()}">${l}</a></li>`).join("")}</ul></nav>
</header>`;
}

function sidebar(): string {
  const group = (title: string, items: string[]) => `<h2>${title}</h2><ul>${items.map((item) => `<li><a href="/${title.toLowerCase()}/${item.toLowerCase().replace(/\W+/g, "-")}">${icon("M2 2h12v12H2z")}${item}</a></li>`).join("")}</ul>`;
  return `<aside aria-label="Workspace">
  ${group("Teams", TEAMS)}
  ${group("Views", ["All items", "Assigned to me", "Created by me", "Due this week", "Overdue", "Recently updated"])}
  ${group("Labels", ["bug", "feature", "chore", "docs", "security", "performance", "design", "needs-triage"])}
  <details><summary>Archived teams</summary><ul><li><a href="/teams/atlas">Atlas</a></li><li><a href="/teams/orion">Orion</a></li></ul></details>
  <div aria-hidden="true" class="decoration">${icon("M0 8h16")}<span>✦ ✦ ✦</span><a href="/tips" tabindex="-1">Tip of the day</a></div>
</aside>`;
}

function toolbar(): string {
  return `<div role="toolbar" aria-label="Item actions">
    <button type="button">New item</button>
    <button type="button" disabled>Delete selected</button>
    <label>Status <select name="status"><option>Any</option>${STATUSES.map((s) => `<option>${s}</option>`).join("")}</select></label>
    <label>Owner <input type="text" name="owner" list="people"></label><datalist id="people">${PEOPLE.map((p) => `<option value="${p}"></option>`).join("")}</datalist>
    <div role="radiogroup" aria-label="Density"><label><input type="radio" name="density" checked> Comfortable</label><label><input type="radio" name="density"> Compact</label></div>
    <div role="tablist" aria-label="Item views"><button role="tab" aria-selected="true">List</button><button role="tab" aria-selected="false">Board</button><button role="tab" aria-selected="false">Timeline</button></div>
  </div>`;
}

function settingsForm(random: Random): string {
  const members = PEOPLE.map((p, i) => `<li role="option" aria-selected="${i < 2}" id="member-${i}">${p}</li>`).join("");
  return `<section aria-labelledby="settings-title">
  <h2 id="settings-title">Workspace settings</h2>
  <form action="/settings" method="post">
    <fieldset><legend>General</legend>
      <p><label for="ws-name">Name</label> <input id="ws-name" name="name" value="Acme ${pick(random, TEAMS)}" required></p>
      <p><label for="ws-desc">Description</label> <textarea id="ws-desc" name="description" rows="3">Everything the team works on.</textarea></p>
      <p><label for="ws-email">Contact email</label> <input id="ws-email" type="email" name="email" placeholder="team@example.org"></p>
      <p><label for="ws-site">Website</label> <input id="ws-site" type="url" name="site"></p>
      <p><label for="ws-size">Team size</label> <input id="ws-size" type="number" name="size" min="1" max="500" value="12"></p>
      <p><label for="ws-start">Start date</label> <input id="ws-start" type="date" name="start"></p>
      <p><label for="ws-tz">Time zone</label> <select id="ws-tz" name="tz"><option>UTC</option><option>Europe/London</option><option>America/New_York</option><option>Asia/Tokyo</option></select></p>
    </fieldset>
    <fieldset><legend>Notifications</legend>
      <label><input type="checkbox" name="digest" checked> Daily digest</label>
      <label><input type="checkbox" name="mentions"> Mentions only</label>
      <label><input type="checkbox" role="switch" name="push" aria-checked="true" checked> Push notifications</label>
      <p><label for="ws-volume">Reminder lead time (days)</label> <input id="ws-volume" type="range" name="lead" min="0" max="14" value="3"></p>
    </fieldset>
    <fieldset><legend>Members</legend>
      <p id="members-label">Default reviewers</p>
      <ul role="listbox" aria-labelledby="members-label" aria-multiselectable="true" tabindex="0">${members}</ul>
      <div class="advanced" style="display:none"><label for="ws-token">API token</label> <input id="ws-token" name="token"><button type="button">Regenerate</button></div>
    </fieldset>
    <p><button type="submit">Save settings</button> <button type="reset">Reset</button> <a href="/settings/danger">Danger zone</a></p>
  </form>
</section>`;
}

function footer(): string {
  const column = (title: string, items: string[]) => `<div><h2>${title}</h2><ul>${items.map((item) => `<li><a href="/${item.toLowerCase().replace(/\W+/g, "-")}">${item}</a></li>`).join("")}</ul></div>`;
  return `<footer>
  ${column("Product", ["Features", "Pricing", "Integrations", "Changelog", "Status"])}
  ${column("Company", ["About", "Careers", "Press", "Contact"])}
  ${column("Resources", ["Documentation", "API reference", "Community", "Blog", "Help center"])}
  <form action="/newsletter"><label for="nl">Newsletter</label> <input id="nl" type="email" name="email" placeholder="you@example.org"> <button type="submit">Subscribe</button></form>
  <p aria-hidden="true" class="decoration">${icon("M0 0h16v16H0z")}${icon("M8 0v16")}${icon("M0 8h16")}</p>
  <p><small>© 2026 Acme Projects · <a href="/terms">Terms</a> · <a href="/privacy">Privacy</a></small></p>
</footer>`;
}

function modal(): string {
  return `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="share-title">
  <h2 id="share-title">Share item</h2>
  <form><label for="share-to">Invite people</label> <input id="share-to" type="email" name="to">
    <label for="share-role">Role</label> <select id="share-role"><option>Viewer</option><option>Editor</option></select>
    <button type="submit">Send invite</button> <button type="button">Copy link</button> <button type="button" aria-label="Close">${icon("M2 2l12 12M14 2L2 14")}</button></form>
</div>`;
}
