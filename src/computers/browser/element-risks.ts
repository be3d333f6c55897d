// What acting on an element risks, for the approval policy, wherever the element lives: the
// element under a point or the focused one is followed into frames (of this origin or another,
// out of process too) and open shadow roots, so that a form inside a frame is judged as itself,
// toward its own origin, rather than as the <iframe> that holds it.
import type { ElementHandle, Frame, Page } from "playwright-core";
import { PRESS_WORDS } from "../../core/approval-policy.ts";
import type { Risk } from "../computer.ts";

/** Frames nested deeper than this are not followed: the element found is the frame at that depth. */
const MAX_FRAME_DEPTH = 8;

export type RiskHow = "click" | "enter" | "type";

/**
 * The element at a point (CSS pixels of the page's viewport), or the focused one when `point` is
 * null, found in the innermost frame and shadow root that holds it; null when there is none.
 */
export async function deepElement(page: Page, point: { x: number; y: number } | null): Promise<ElementHandle<Element> | null> {
  let frame: Frame = page.mainFrame();
  let at = point;
  for (let depth = 0; ; depth++) {
    const found = await frame.evaluateHandle(elementIn, at);
    const element = found.asElement() as ElementHandle<Element> | null;
    if (!element) {
      await found.dispose();
      return null;
    }
    const content = depth < MAX_FRAME_DEPTH ? await element.evaluate(frameContent) : null;
    const inner = content ? await element.contentFrame() : null;
    if (!content || !inner) return element;
    await element.dispose();
    at = at && { x: at.x - content.x, y: at.y - content.y };
    frame = inner;
  }
}

/**
 * What acting on the element risks, judged in the frame that holds it: a frame of another origin
 * than the page's is judged as that origin's own page would be, and its risks carry that origin.
 */
export function risksOfHandle(element: ElementHandle<Element>, how: RiskHow, downloads: RegExp): Promise<Risk[]> {
  return element.evaluate(risksInPage, { downloads: downloads.source, press: PRESS_WORDS, how });
}

/**
 * What acting on the element at a point (CSS pixels), or on the focused one when `point` is null,
 * risks, read in one round trip to the page when that element is in the page's own document, as
 * most are: `in a frame` when it is a frame's, which {@link deepElement} follows. The page runs
 * the same functions as on a handle, put together as one expression: a function sent to a page
 * cannot call another one sent beside it.
 */
export async function risksInPageDocument(page: Page, point: { x: number; y: number } | null, how: RiskHow, downloads: RegExp): Promise<Risk[] | "in a frame"> {
  const options = JSON.stringify({ downloads: downloads.source, press: PRESS_WORDS, how });
  const read = `(() => {
    const element = (${elementIn})(${JSON.stringify(point)});
    if (!element) return [];
    return (${frameContent})(element) ? "in a frame" : (${risksInPage})(element, ${options});
  })()`;
  return (await page.evaluate(read)) as Risk[] | "in a frame";
}

/**
 * The element's box in the page's CSS pixels, its frames' offsets added (each frame's content box,
 * past border and padding, which Playwright's own box leaves out for a frame of another site);
 * null when it has no size or a frame holding it is gone.
 */
export async function boxInPage(element: ElementHandle<Element>): Promise<{ x: number; y: number; width: number; height: number } | null> {
  const box = await element.evaluate((found) => {
    const { left, top, width, height } = found.getBoundingClientRect();
    return width > 0 || height > 0 ? { x: left, y: top, width, height } : null;
  });
  let frame = await element.ownerFrame();
  for (let parent = frame?.parentFrame(); box && frame && parent; frame = parent, parent = parent.parentFrame()) {
    const holder = await frame.frameElement();
    const content = await holder.evaluate(frameContent).finally(() => holder.dispose());
    if (!content) return null;
    box.x += content.x;
    box.y += content.y;
  }
  return box;
}

/** The origin of the document that holds the element. */
export function originOfHandle(element: ElementHandle<Element>): Promise<string> {
  return element.evaluate((found) => found.ownerDocument.defaultView?.origin ?? "null");
}

// Runs in a frame: the element at the point (the frame's own CSS pixels) or the focused one,
// followed into open shadow roots. Self-contained, as every function sent to a page is here.
function elementIn(at: { x: number; y: number } | null): Element | null {
  let found = at ? document.elementFromPoint(at.x, at.y) : document.activeElement;
  while (found?.shadowRoot) {
    const inner: Element | null = at ? found.shadowRoot.elementFromPoint(at.x, at.y) : found.shadowRoot.activeElement;
    if (!inner || inner === found) break;
    found = inner;
  }
  return found;
}

// Runs in a frame on the element found: where the content box of an <iframe> or <frame> starts in
// this frame's viewport (past its border and padding), which is where the inner page's (0, 0) is;
// null for any other element.
function frameContent(element: Element): { x: number; y: number } | null {
  if (element.localName !== "iframe" && element.localName !== "frame") return null;
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  return { x: box.left + element.clientLeft + parseFloat(style.paddingLeft), y: box.top + element.clientTop + parseFloat(style.paddingTop) };
}

// Runs in the element's own frame on the element itself (or its nearest control), so it is one
// self-contained function: tsx would wrap inner named helpers in a `__name` the page lacks. `how`:
// a click, Enter pressed in it (which submits a form from a text field), or text typed into it.
// A form that is posted (or holds a password) submits; one that is only read (GET, a search)
// leaves the site at most. Origins are compared whole: scheme, host and port; `here` is the
// document's own (a frame's, not the page's), which every risk that goes somewhere carries.
function risksInPage(element: Element, { downloads, press, how }: { downloads: string; press: Record<string, string>; how: RiskHow }): Risk[] {
  const risks: Risk[] = [];
  const here = self.origin;
  const control = element.closest("button, input, textarea, select, a[href], [role=button], [role=link], [role=menuitem]") ?? element;
  const tag = control.localName;
  const type = (control.getAttribute("type") ?? (tag === "button" ? "submit" : "text")).toLowerCase();
  const name = (control.getAttribute("aria-label") || (control as HTMLElement).innerText || (control as HTMLInputElement).value || control.getAttribute("title") || "").trim().replace(/\s+/g, " ");
  const quoted = name.length > 0 && name.length <= 60 ? ` "${name}"` : "";
  if (how === "type") {
    const hints = `${control.getAttribute("autocomplete") ?? ""} ${control.getAttribute("name") ?? ""} ${control.id}`;
    if (type === "password" || /\bcc-|card.?num|cc.?num|\bcvc|\bcvv|\bcsc\b|security.?code|\biban\b|current-password|new-password/i.test(hints)) {
      risks.push({ kind: "sensitive_field", message: `types into a ${type === "password" || /password/i.test(hints) ? "password" : "payment"} field`, origin: here });
    }
    return risks;
  }
  const form = (control as HTMLButtonElement).form ?? control.closest("form");
  const button = (tag === "button" && type === "submit") || (tag === "input" && (type === "submit" || type === "image"));
  const field = (tag === "input" && !["button", "checkbox", "radio", "reset", "file", "submit", "image"].includes(type)) || tag === "textarea";
  if (form && (how === "enter" ? field && tag !== "textarea" : button)) {
    // A button's formAction reads as the page's own address when it has no formaction of its own.
    const action = new URL(control.hasAttribute("formaction") ? (control as HTMLButtonElement).formAction : form.action, location.href);
    const posted = (form.getAttribute("method") ?? "get").toLowerCase() !== "get" || form.querySelector("input[type=password]") !== null;
    if (posted) risks.push({ kind: "submit", message: `submits the form${form.getAttribute("name") ? ` "${form.getAttribute("name")}"` : ""}`, origin: here });
    if (/^https?:$/.test(action.protocol) && action.origin !== here) risks.push({ kind: "leave_site", message: `sends the form to ${action.origin}`, origin: action.origin });
  }
  if (how === "click" && name.length <= 60) {
    for (const [kind, words] of Object.entries(press)) {
      if (new RegExp(words, "i").test(name)) risks.push({ kind: kind as Risk["kind"], message: `presses${quoted}, which may ${kind}` });
    }
  }
  if (how === "click" && tag === "a") {
    const link = control as HTMLAnchorElement;
    const target = new URL(link.href, location.href);
    if (link.hasAttribute("download") || new RegExp(downloads, "i").test(target.pathname)) {
      risks.push({ kind: "download", message: `downloads ${link.getAttribute("download") || target.pathname.split("/").pop()}` });
    }
    if (/^https?:$/.test(target.protocol) && target.origin !== here) {
      risks.push({ kind: "leave_site", message: `leaves ${here} for ${target.origin}`, origin: target.origin });
    }
  }
  return risks;
}
