// The page scanner, run inside the page by the server's browser (page.evaluate) and by the
// extension's page bundle alike: the interactive elements as a numbered list (browser_dom_index),
// with headings and labels and XPaths (browser_xpath_scan), the element under a point, and which
// points show through a layer that hides them. Self-contained: it imports nothing at run time.

/** "viewport": only elements on screen now; "document": the whole page. */
export type Scope = "viewport" | "document";

/** CSS pixels relative to the viewport, rounded. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Found {
  tag: string;
  role: string;
  text?: string;
  xpath: string | null;
  clickId?: number;
  bbox: Box;
}

export type ScanArgs = { mode: "index" | "scan" | "at" | "behind"; scope: Scope; attr: string; points?: readonly { x: number; y: number }[] };

// Runs inside the page, so it must be self-contained. Helpers are object methods rather than
// named functions or arrow constants: tsx (which runs the product) wraps those in `__name(…)`,
// a helper that does not exist in the page. `behind` mode answers in `behind`, the others in `found`.
export function scanDom({ mode, scope, attr, points = [] }: ScanArgs): { found: Found[]; behind: boolean[] } {
  const INTERACTIVE = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    ...["button", "link", "checkbox", "radio", "tab", "menuitem", "option", "switch", "textbox", "combobox"].map((r) => `[role=${r}]`),
    "[onclick]", '[contenteditable="true"]', '[contenteditable=""]', '[tabindex]:not([tabindex="-1"])',
  ].join(", ");
  const WANTED = mode === "index" ? INTERACTIVE : `${INTERACTIVE}, h1, h2, h3, h4, h5, h6, label`;
  const XHTML = "http://www.w3.org/1999/xhtml";
  const OVERLAY_TAG = "easyagentcu-overlay";
  // How much of an element the layers above it must cover for it to count as hidden (see hidden()).
  const SEEN = 0.1;
  // Elements that paint their whole box whatever their background says.
  const PAINTED = new Set(["img", "video", "canvas", "iframe", "embed", "object", "input", "textarea", "select", "button", "progress", "meter"]);
  const opacities = new Map<Element, number>();
  const out: Found[] = [];

  const h = {
    // Document order; an open shadow root's elements follow their host (index mode only).
    walk(root: Document | ShadowRoot): void {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node as Element;
        // The extension's overlay host is its own, never part of the page's list.
        if (el.localName === OVERLAY_TAG) continue;
        if (mode === "index") el.removeAttribute(attr);
        if (el.matches(WANTED)) h.consider(el);
        if (mode === "index" && el.shadowRoot) h.walk(el.shadowRoot);
      }
    },
    consider(el: Element): void {
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) return;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none") return;
      if (scope === "viewport" && (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth)) return;
      if (mode === "index" && scope === "viewport" && h.hidden(el, r)) return;
      const found: Found = {
        tag: el.localName,
        role: h.role(el),
        xpath: h.xpath(el),
        bbox: { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) },
      };
      const text = h.label(el).replace(/\s+/g, " ").trim().slice(0, 80);
      if (text) found.text = text;
      if (mode === "index") {
        found.clickId = out.length + 1;
        el.setAttribute(attr, String(found.clickId));
      } else if (el.hasAttribute(attr)) {
        found.clickId = Number(el.getAttribute(attr));
      }
      out.push(found);
    },
    // Whether the element is out of sight and reach at its centre. A person clicks what they see,
    // and so does the model, so a layer hides the element only when a click there would land on it
    // (elementsFromPoint skips pointer-events: none) AND it paints there: together the layers above
    // must paint over at least SEEN (10%) of what is behind them. A modal's 50% backdrop leaves the
    // page visible but dimmed, which people read as "out of reach" — and a click lands on the
    // backdrop — so what is behind it is left out. A layer with opacity 0, no background, or its
    // content elsewhere paints nothing there: the person sees the link and the link stays listed,
    // though a click at its centre still meets the layer first (the hands' hit test reports that).
    // A layer with pointer-events: none never hides anything, however opaque: a click goes through.
    hidden(el: Element, r: DOMRect): boolean {
      const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
      const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const root = el.getRootNode() as Document | ShadowRoot;
      const top = root.elementFromPoint(cx, cy);
      // A host on top may be its own shadow root's layer over the element slotted into it: look in.
      if (!top || top === el || el.contains(top) || (top.contains(el) && !top.shadowRoot)) return false;
      let clear = 1;
      // Top to bottom; the element's own children are part of it, its ancestors are behind it.
      for (const layer of h.layersAt(cx, cy)) {
        if (h.within(el, layer)) return false;
        if (h.within(layer, el)) continue;
        clear *= 1 - h.paint(layer, cx, cy);
        if (1 - clear >= SEEN) return true;
      }
      return false;
    },
    // hidden() for a control only the pixels show, which has no element: it is drawn by the first
    // layer at the point that draws something of its own there (a canvas, an image, text). The
    // top layer's own containers are behind it, as an element's ancestors are in hidden(); what
    // the layers above the one that draws it cover adds up as there.
    behind(x: number, y: number): boolean {
      const layers = h.layersAt(x, y);
      const top = layers[0];
      let clear = 1;
      for (const layer of layers) {
        if (top && layer !== top && h.within(layer, top)) continue;
        const style = getComputedStyle(layer);
        const opacity = h.opacity(layer);
        if (opacity > 0 && h.draws(layer, style, x, y)) return false;
        clear *= 1 - h.cover(style) * opacity;
        if (1 - clear >= SEEN) return true;
      }
      return false;
    },
    // The layers at a point, top to bottom, with what an open shadow root draws in place of its host
    // (above the host, which is its container): a web component's own backdrop is a layer too.
    layersAt(x: number, y: number, root: Document | ShadowRoot = document, seen = new Set<Element>()): Element[] {
      const layers: Element[] = [];
      for (const layer of root.elementsFromPoint(x, y)) {
        // A shadow root's answer goes on into the document around it, which its host's caller has.
        if (seen.has(layer) || (root !== document && !root.contains(layer))) continue;
        seen.add(layer);
        if (layer.shadowRoot) layers.push(...h.layersAt(x, y, layer.shadowRoot, seen));
        layers.push(layer);
      }
      return layers;
    },
    // `inner` is `outer` or drawn inside it: its ancestors as the page is drawn, through slots and
    // out of shadow roots.
    within(outer: Element, inner: Element): boolean {
      for (let node: Node | null = inner; node; node = (node as Element).assignedSlot ?? node.parentNode ?? (node instanceof ShadowRoot ? node.host : null)) {
        if (node === outer) return true;
      }
      return false;
    },
    // How much of what is behind a layer its own box hides at a point, 0 to 1.
    paint(layer: Element, x: number, y: number): number {
      const style = getComputedStyle(layer);
      return (h.draws(layer, style, x, y) ? 1 : h.cover(style)) * h.opacity(layer);
    },
    // The layer draws something of its own at the point: it is a picture or a control, a shape,
    // has an image for a background, or its own text is there.
    draws(layer: Element, style: CSSStyleDeclaration, x: number, y: number): boolean {
      return PAINTED.has(layer.localName) || (layer instanceof SVGElement && !(layer instanceof SVGSVGElement)) || style.backgroundImage.includes("url(") || h.textAt(layer, x, y);
    },
    // How much the layer's background hides: a colour by its alpha; a gradient or a backdrop filter all.
    cover(style: CSSStyleDeclaration): number {
      return style.backgroundImage !== "none" || style.backdropFilter !== "none" ? 1 : h.alpha(style.backgroundColor);
    },
    // The alpha of a computed colour: `rgba(0, 0, 0, 0.5)`, `color(srgb 0 0 0 / 0.5)`, or opaque.
    alpha(color: string): number {
      if (color === "transparent") return 0;
      const a = color.match(/^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\)$/) ?? color.match(/\/\s*([\d.]+)(%?)\s*\)$/);
      if (!a) return 1;
      return a[2] ? Number(a[1]) / 100 : Number(a[1]);
    },
    // The element's opacity times its ancestors', across shadow boundaries.
    opacity(el: Element): number {
      const known = opacities.get(el);
      if (known !== undefined) return known;
      const root = el.getRootNode();
      const parent = el.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
      const value = Number(getComputedStyle(el).opacity) * (parent ? h.opacity(parent) : 1);
      opacities.set(el, value);
      return value;
    },
    // The layer's own text (not its children's, which are layers of their own) is at the point.
    textAt(layer: Element, x: number, y: number): boolean {
      for (const child of Array.from(layer.childNodes)) {
        if (child.nodeType !== Node.TEXT_NODE || !child.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(child);
        for (const box of Array.from(range.getClientRects())) {
          if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return true;
        }
      }
      return false;
    },
    role(el: Element): string {
      const explicit = el.getAttribute("role");
      if (explicit) return explicit;
      const tag = el.localName;
      if (tag === "a") return "link";
      if (tag === "select") return "combobox";
      if (tag === "textarea") return "textbox";
      if (tag === "input") {
        const type = (el as HTMLInputElement).type;
        if (type === "checkbox" || type === "radio") return type;
        return ["button", "submit", "reset"].includes(type) ? "button" : "textbox";
      }
      return tag;
    },
    label(el: Element): string {
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
    },
    // `//*[@id="x"]` for a unique id, else the absolute path; null across a shadow boundary.
    xpath(el: Element): string | null {
      if (el.getRootNode() !== document) return null;
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
    },
  };

  if (mode === "behind") return { found: out, behind: points.map((p) => h.behind(p.x, p.y)) };
  if (mode === "at") {
    const at = points[0];
    const el = at ? document.elementFromPoint(at.x, at.y) : null;
    if (el) {
      const r = el.getBoundingClientRect();
      const text = h.label(el).replace(/\s+/g, " ").trim().slice(0, 80);
      out.push({ tag: el.localName, role: h.role(el), xpath: h.xpath(el), bbox: { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) }, ...(text ? { text } : {}) });
    }
    return { found: out, behind: [] };
  }
  h.walk(document);
  return { found: out, behind: [] };
}
