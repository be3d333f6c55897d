// Runs in the page: finds the element an action names (a click id from browser_dom_index, or an
// XPath), brings it into view and tells where its centre is; and the DOM fallbacks of §4.6 (a
// DOM click, setting an input's value) for when CDP cannot be used.

export interface TargetArgs {
  clickId?: number;
  xpath?: string;
  /** The attribute the click ids were written into. */
  attr: string;
}

/** An error the worker turns into the contract's code of the same name. */
export function fail(code: "INVALID_TARGET" | "ACTION_FAILED", message: string): never {
  const err = new Error(message);
  err.name = code;
  throw err;
}

function byClickId(root: Document | ShadowRoot, attr: string, id: number): Element | null {
  const direct = root.querySelector(`[${CSS.escape(attr)}="${id}"]`);
  if (direct) return direct;
  for (const host of Array.from(root.querySelectorAll("*"))) {
    if (host.shadowRoot) {
      const inner = byClickId(host.shadowRoot, attr, id);
      if (inner) return inner;
    }
  }
  return null;
}

export function find({ clickId, xpath, attr }: TargetArgs): Element {
  if (clickId !== undefined) {
    const el = byClickId(document, attr, clickId);
    if (!el) fail("INVALID_TARGET", `No element has click id ${clickId} (${attr}); the page changed since browser_dom_index — index it again.`);
    return el;
  }
  if (xpath !== undefined) {
    let node: Node | null;
    try {
      node = document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    } catch {
      fail("INVALID_TARGET", `${JSON.stringify(xpath)} is not a valid XPath.`);
    }
    if (!(node instanceof Element)) fail("INVALID_TARGET", `No element matches the XPath ${JSON.stringify(xpath)}.`);
    return node;
  }
  fail("INVALID_TARGET", "Name the element by clickId or xpath.");
}

export interface Located {
  x: number;
  y: number;
  tag: string;
  /** What is on top of the element's centre, when something else is. */
  coveredBy?: string;
}

/** Scrolls the element to the middle of the viewport and returns its centre in CSS pixels. */
export function locate(args: TargetArgs): Located {
  const el = find(args);
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) fail("INVALID_TARGET", `The <${el.localName}> element is not visible (it has no size).`);
  const hit = covered(el, r);
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, tag: el.localName, ...(hit ? { coveredBy: describe(hit) } : {}) };
}

const describe = (el: Element) => `<${el.localName}${el.id ? ` id="${el.id}"` : ""}>`;

export function domClick(args: TargetArgs): { tag: string } {
  const el = find(args);
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  if (el instanceof HTMLElement) el.click();
  else el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, composed: true }));
  return { tag: el.localName };
}

/** The element to type into, focused and with the caret at its end; the focused one if none is named. */
export function focusForTyping(args: TargetArgs): { tag: string } {
  const el = args.clickId === undefined && args.xpath === undefined ? deepActive() : find(args);
  if (!el || el === document.body || el === document.documentElement) fail("INVALID_TARGET", "Nothing is focused to type into; name the field by clickId or xpath.");
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  if (el instanceof HTMLElement) el.focus({ preventScroll: true });
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && typeof el.selectionStart === "number") {
    try {
      el.setSelectionRange(el.value.length, el.value.length);
    } catch {
      // Inputs of type email or number have no selection.
    }
  } else if (el instanceof HTMLElement && el.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    range.collapse(false);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  }
  if (document.activeElement !== el && !(el.getRootNode() instanceof ShadowRoot)) fail("INVALID_TARGET", `The <${el.localName}> element cannot take focus, so it cannot be typed into.`);
  return { tag: el.localName };
}

function deepActive(): Element | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** The DOM fallback of browser_type: appends the text as the value and fires input and change. */
export function domInput(args: TargetArgs & { text: string; submit: boolean }): { tag: string } {
  focusForTyping(args);
  const el = deepActive()!;
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    // The prototype's setter, so frameworks that track the value (React) see the change.
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")?.set;
    const value = el.value + args.text;
    if (setter) setter.call(el, value);
    else el.value = value;
    el.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: args.text }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (el instanceof HTMLElement && el.isContentEditable) {
    document.execCommand("insertText", false, args.text);
  } else {
    fail("INVALID_TARGET", `The <${el.localName}> element does not take text.`);
  }
  if (args.submit) {
    const init = { key: "Enter", code: "Enter", keyCode: 13, which: 13, bubbles: true, cancelable: true, composed: true };
    const proceed = el.dispatchEvent(new KeyboardEvent("keydown", init));
    el.dispatchEvent(new KeyboardEvent("keypress", init));
    el.dispatchEvent(new KeyboardEvent("keyup", init));
    const form = (el as HTMLInputElement).form;
    if (proceed && form) form.requestSubmit();
  }
  return { tag: el.localName };
}

/**
 * Something else is on top of the element's centre (not a child of it, not its container): what a
 * click there lands on instead, seen or not. The lists leave out only what a person cannot see
 * (src/injected/page-scan.ts).
 */
function covered(el: Element, r: DOMRect): Element | undefined {
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint(cx, cy);
  // A host on top may be its own shadow root's layer over the element slotted into it.
  return hit && hit !== el && !el.contains(hit) && !(hit.contains(el) && !hit.shadowRoot) ? hit : undefined;
}
