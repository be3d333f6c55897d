// Reads the ARIA snapshot a browser gives in its "ai" mode (the text Playwright MCP's
// browser_snapshot returns) into a tree: one node per line, with its role, name, states, ref,
// box and inline text, and the `/url`-like properties folded into their element.
import type { Box } from "../pixels/geometry.ts";

export type { Box };

export interface AriaNode {
  role: string;
  /** The accessible name; "" when it has none. */
  name: string;
  /** States and properties as written: `level=1`, `checked`, `expanded=false`… (not ref, box, cursor). */
  states: string[];
  ref?: string;
  /** Where it was when the snapshot was taken, in CSS pixels of the viewport. */
  box?: Box;
  /** The pointer turns into a hand over it: a clickable element without a role. */
  pointer: boolean;
  /** Inside `aria-hidden="true"`: present on screen, absent for assistive technology. */
  ariaHidden: boolean;
  /** The text written after the colon (a paragraph's text, a text node's). */
  text?: string;
  /** `/url`, `/placeholder`… lines, by name without the slash. */
  props: Record<string, string>;
  children: AriaNode[];
}

/**
 * Parses the snapshot text; lines it cannot read become text nodes rather than errors, so that a
 * change of format degrades the view instead of breaking it.
 * @example parseAriaSnapshot('- button "Send" [ref=e7]')[0]!.ref // "e7"
 */
export function parseAriaSnapshot(snapshot: string): AriaNode[] {
  const roots: AriaNode[] = [];
  const open: { indent: number; node: AriaNode }[] = [];
  for (const raw of snapshot.split("\n")) {
    const match = /^(\s*)- (.*)$/.exec(raw);
    if (!match) continue;
    const indent = match[1]!.length;
    while (open.length && open[open.length - 1]!.indent >= indent) open.pop();
    const parent = open[open.length - 1]?.node;
    const line = unwrapKey(match[2]!);
    if (line.key.startsWith("/")) {
      if (parent) parent.props[line.key.slice(1)] = line.value ?? "";
      continue;
    }
    const node = readKey(line.key);
    if (line.value !== undefined && line.value !== "") node.text = line.value;
    (parent ? parent.children : roots).push(node);
    open.push({ indent, node });
  }
  return roots;
}

/** Splits `key: value`, undoing YAML's quoting of either side. */
function unwrapKey(line: string): { key: string; value?: string } {
  let key: string;
  let rest: string;
  if (line.startsWith("'")) {
    let end = 1;
    while (end < line.length && !(line[end] === "'" && line[end + 1] !== "'")) end += line[end] === "'" ? 2 : 1;
    key = line.slice(1, end).replace(/''/g, "'");
    rest = line.slice(end + 1);
  } else {
    const colon = keyEnd(line);
    key = line.slice(0, colon);
    rest = line.slice(colon);
  }
  if (!rest.startsWith(":")) return { key };
  return { key, value: unquote(rest.slice(1).trim()) };
}

/** Where an unquoted key ends: the first colon outside a double-quoted name. */
function keyEnd(line: string): number {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ":" && !quoted && (i === line.length - 1 || line[i + 1] === " ")) return i;
  }
  return line.length;
}

function unquote(value: string): string {
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

/** `role "name" [state] [ref=e1] [box=…]` into a node. */
function readKey(key: string): AriaNode {
  const node: AriaNode = { role: "", name: "", states: [], pointer: false, ariaHidden: false, props: {}, children: [] };
  const role = /^[^\s"[]+/.exec(key);
  node.role = role ? role[0] : "generic";
  let at = node.role.length;
  const name = /^ ("(?:[^"\\]|\\.)*")/.exec(key.slice(at));
  if (name) {
    node.name = unquote(name[1]!);
    at += name[0].length;
  }
  for (const [, attr] of key.slice(at).matchAll(/\[([^\]]*)\]/g)) {
    const [k, v] = attr!.split(/=(.*)/s);
    if (k === "ref") node.ref = v;
    else if (k === "box") node.box = readBox(v ?? "");
    else if (k === "cursor") node.pointer = v === "pointer";
    else if (k === "aria-hidden") node.ariaHidden = true;
    else node.states.push(attr!);
  }
  return node;
}

function readBox(text: string): Box | undefined {
  const [x, y, width, height] = text.split(",").map(Number);
  return [x, y, width, height].every((n) => Number.isFinite(n)) ? { x: x!, y: y!, width: width!, height: height! } : undefined;
}
