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
    if (mode === "index" && scope === "viewport" && covered(el, r)) return;
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

/** Something else is on top of the element's centre (not a child of it, not its container). */
export function covered(el: Element, r: DOMRect): Element | undefined {
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint(cx, cy);
  return hit && hit !== el && !el.contains(hit) && !hit.contains(el) ? hit : undefined;
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
