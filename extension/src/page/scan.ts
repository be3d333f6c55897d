// Runs in the page: the interactive elements as a numbered list (browser_dom_index) or, with
// headings and labels, each with its XPath (browser_xpath_scan). Boxes are CSS pixels relative to
// the viewport. Index mode walks open shadow roots and writes each number into the attribute.

export type Scope = "viewport" | "document";

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Found {
  clickId?: number;
  tag: string;
  text?: string;
  /** Absent inside a shadow root, where XPath cannot reach. */
  xpath?: string;
  bbox: Box;
}

const INTERACTIVE = [
  "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
  ...["button", "link", "checkbox", "radio", "tab", "menuitem", "option", "switch", "textbox", "combobox"].map((r) => `[role=${r}]`),
  "[onclick]", '[contenteditable="true"]', '[contenteditable=""]', '[tabindex]:not([tabindex="-1"])',
].join(", ");
const XHTML = "http://www.w3.org/1999/xhtml";
/** The overlay's host element: never part of the page's list. */
const OVERLAY_TAG = "easyagentcu-overlay";

export function scan({ mode, scope, attr }: { mode: "index" | "scan"; scope: Scope; attr: string }): Found[] {
  const wanted = mode === "index" ? INTERACTIVE : `${INTERACTIVE}, h1, h2, h3, h4, h5, h6, label`;
  const out: Found[] = [];
  const walk = (root: Document | ShadowRoot) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node as Element;
      if (el.localName === OVERLAY_TAG) continue;
      if (mode === "index") el.removeAttribute(attr);
      if (el.matches(wanted)) consider(el);
      if (mode === "index" && el.shadowRoot) walk(el.shadowRoot);
    }
  };
  const consider = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") return;
    if (scope === "viewport" && (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth)) return;
    if (mode === "index" && scope === "viewport" && hidden(el, r)) return;
    const xpath = xpathOf(el);
    if (mode === "scan" && !xpath) return;
    const found: Found = { tag: el.localName, bbox: boxOf(r) };
    const text = labelOf(el).replace(/\s+/g, " ").trim().slice(0, 80);
    if (text) found.text = text;
    if (xpath) found.xpath = xpath;
    if (mode === "index") {
      found.clickId = out.length + 1;
      el.setAttribute(attr, String(found.clickId));
    } else if (el.hasAttribute(attr)) {
      const id = Number(el.getAttribute(attr));
      if (Number.isInteger(id)) found.clickId = id;
    }
    out.push(found);
  };
  walk(document);
  return out;
}

export const boxOf = (r: DOMRect): Box => ({ x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) });

/**
 * Something else is on top of the element's centre (not a child of it, not its container): what a
 * click there lands on instead, seen or not. The list uses {@link hidden}, which asks what a person sees.
 */
export function covered(el: Element, r: DOMRect): Element | undefined {
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint(cx, cy);
  // A host on top may be its own shadow root's layer over the element slotted into it.
  return hit && hit !== el && !el.contains(hit) && !(hit.contains(el) && !hit.shadowRoot) ? hit : undefined;
}

// How much of an element the layers above it must cover for it to count as hidden.
const SEEN = 0.1;
// Elements that paint their whole box whatever their background says.
const PAINTED = new Set(["img", "video", "canvas", "iframe", "embed", "object", "input", "textarea", "select", "button", "progress", "meter"]);

/**
 * The element is out of sight and reach at its centre: the layers above it that a click would land
 * on (elementsFromPoint skips pointer-events: none) together paint over at least SEEN of it. The
 * same rule as the server's DOM index (src/computers/browser/dom-index.ts, which says why): a
 * modal's 50% backdrop hides the page behind it; a transparent click catcher, a layer at opacity 0,
 * or one whose content is elsewhere hides nothing, so the link under it stays listed.
 */
export function hidden(el: Element, r: DOMRect): boolean {
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  if (!covered(el, r)) return false;
  let clear = 1;
  // Top to bottom; the element's own children are part of it, its ancestors are behind it.
  for (const layer of layersAt(cx, cy)) {
    if (within(el, layer)) return false;
    if (within(layer, el)) continue;
    clear *= 1 - paintAt(layer, cx, cy);
    if (1 - clear >= SEEN) return true;
  }
  return false;
}

/**
 * The layers at a point, top to bottom, with what an open shadow root draws in place of its host
 * (above the host, which is its container): a web component's own backdrop is a layer too.
 */
function layersAt(x: number, y: number, root: Document | ShadowRoot = document, seen = new Set<Element>()): Element[] {
  const layers: Element[] = [];
  for (const layer of root.elementsFromPoint(x, y)) {
    // A shadow root's answer goes on into the document around it, which its host's caller has.
    if (seen.has(layer) || (root !== document && !root.contains(layer))) continue;
    seen.add(layer);
    if (layer.shadowRoot) layers.push(...layersAt(x, y, layer.shadowRoot, seen));
    layers.push(layer);
  }
  return layers;
}

/** `inner` is `outer` or drawn inside it: its ancestors as the page is drawn, through slots and out of shadow roots. */
function within(outer: Element, inner: Element): boolean {
  for (let node: Node | null = inner; node; node = (node as Element).assignedSlot ?? node.parentNode ?? (node instanceof ShadowRoot ? node.host : null)) {
    if (node === outer) return true;
  }
  return false;
}

/** How much of what is behind a layer its own box hides at a point, 0 to 1. */
function paintAt(layer: Element, x: number, y: number): number {
  const style = getComputedStyle(layer);
  const solid =
    PAINTED.has(layer.localName) ||
    (layer instanceof SVGElement && !(layer instanceof SVGSVGElement)) ||
    style.backgroundImage !== "none" ||
    style.backdropFilter !== "none" ||
    ownTextAt(layer, x, y);
  return (solid ? 1 : alphaOf(style.backgroundColor)) * opacityOf(layer);
}

/** The alpha of a computed colour: `rgba(0, 0, 0, 0.5)`, `color(srgb 0 0 0 / 0.5)`, or opaque. */
function alphaOf(color: string): number {
  if (color === "transparent") return 0;
  const a = color.match(/^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\)$/) ?? color.match(/\/\s*([\d.]+)(%?)\s*\)$/);
  if (!a) return 1;
  return a[2] ? Number(a[1]) / 100 : Number(a[1]);
}

/** The element's opacity times its ancestors', across shadow boundaries. */
function opacityOf(el: Element): number {
  let value = 1;
  for (let node: Element | null = el; node; ) {
    value *= Number(getComputedStyle(node).opacity);
    const root = node.getRootNode();
    node = node.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
  }
  return value;
}

/** The layer's own text (not its children's, which are layers of their own) is at the point. */
function ownTextAt(layer: Element, x: number, y: number): boolean {
  for (const child of Array.from(layer.childNodes)) {
    if (child.nodeType !== Node.TEXT_NODE || !child.textContent?.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(child);
    for (const box of Array.from(range.getClientRects())) {
      if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return true;
    }
  }
  return false;
}

export function labelOf(el: Element): string {
  const aria = el.getAttribute("aria-label");
  if (aria?.trim()) return aria;
  const root = el.getRootNode() as Document | ShadowRoot;
  const labelledBy = (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).map((id) => (id ? root.getElementById(id)?.textContent : ""));
  if (labelledBy.some((t) => t?.trim())) return labelledBy.join(" ");
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length > 0) return Array.from(labels, (l) => l.innerText).join(" ");
  const placeholder = el.getAttribute("placeholder");
  if (placeholder) return placeholder;
  if (el instanceof HTMLInputElement && ["button", "submit", "reset"].includes(el.type)) return el.value;
  if (el instanceof HTMLSelectElement) return Array.from(el.selectedOptions, (o) => o.text).join(", ");
  const inner = el instanceof HTMLElement ? el.innerText : el.textContent;
  return inner?.trim() ? inner : (el.getAttribute("title") ?? el.getAttribute("alt") ?? "");
}

/** `//*[@id="x"]` for a unique id, else the absolute path; undefined across a shadow boundary. */
export function xpathOf(el: Element): string | undefined {
  if (el.getRootNode() !== document) return undefined;
  if (el.id && !el.id.includes('"') && document.querySelectorAll(`#${CSS.escape(el.id)}`).length === 1) return `//*[@id="${el.id}"]`;
  const steps: string[] = [];
  for (let node: Element | null = el; node; node = node.parentElement) {
    // Outside the HTML namespace (SVG, MathML) a bare name does not match in an HTML document.
    const test = node.namespaceURI === XHTML ? node.localName : `*[local-name()="${node.localName}"]`;
    if (node === document.documentElement || node === document.body) {
      steps.unshift(test);
      continue;
    }
    let index = 1;
    for (let s = node.previousElementSibling; s; s = s.previousElementSibling) {
      if (s.localName === node.localName && s.namespaceURI === node.namespaceURI) index++;
    }
    steps.unshift(`${test}[${index}]`);
  }
  return `/${steps.join("/")}`;
}
