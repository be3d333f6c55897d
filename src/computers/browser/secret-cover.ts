// Hides a typed secret wherever a page draws it, not only in the field it was typed into: a page
// may echo what is typed into a paragraph, a heading or another field, or send it to a frame of
// another site. Before a capture, the page's DOM is read from outside (CDP `DOMSnapshot`, every
// document of the page's process, its same-process frames among them, then each frame drawn by
// another process through its own session) for text, field values and attributes holding a
// value, and the element drawing each is blurred as the field is. The value is never handed to
// the page's scripts: the search runs here, and the page only sees a style set on an element.
import type { BrowserContext, CDPSession, Frame, Page } from "playwright-core";

/** Set on an element that drew a secret: blurred for good, as a field a secret was typed into is. */
const MARK = "data-easyagentcu-secret";

interface RareStrings {
  index: number[];
  value: number[];
}

interface SnapshotDocument {
  nodes: {
    parentIndex?: number[];
    nodeType?: number[];
    nodeValue?: number[];
    backendNodeId?: number[];
    attributes?: number[][];
    inputValue?: RareStrings;
    textValue?: RareStrings;
  };
}

const TEXT_NODE = 3;

/** Covers a browser context's pages, keeping a session for each frame another process draws. */
export class SecretCover {
  /** Null for a frame its page's process draws: the page's own snapshot holds it. */
  private readonly sessions = new WeakMap<Frame, Promise<CDPSession | null>>();

  constructor(private readonly context: BrowserContext) {}

  /** Blurs what shows one of `values` on `page` (its session `cdp`) and in each of its frames. */
  async cover(page: Page, cdp: CDPSession, values: readonly string[]): Promise<void> {
    if (values.length === 0) return;
    await coverSecrets(cdp, values);
    for (const frame of page.frames()) {
      if (!frame.parentFrame() || frame.isDetached()) continue;
      const session = await this.sessionOf(frame);
      // A frame gone since it was listed has nothing left to show.
      if (session) await coverSecrets(session, values).catch(() => 0);
    }
  }

  private async sessionOf(frame: Frame): Promise<CDPSession | null> {
    const known = this.sessions.get(frame);
    if (known) return known;
    // Only a frame drawn by another process has a session of its own; Playwright refuses the rest.
    // Refused, it is asked again next time: the frame may since have gone to another site, in a process of its own.
    const session = this.context.newCDPSession(frame).catch(() => null);
    this.sessions.set(frame, session);
    const made = await session;
    if (!made) this.sessions.delete(frame);
    return made;
  }
}

/**
 * Blurs every element of the page that shows one of `values` and is not blurred yet; resolves
 * with how many it blurred. A page that changes between this and the capture is caught at the
 * next capture.
 */
export async function coverSecrets(cdp: CDPSession, values: readonly string[]): Promise<number> {
  if (values.length === 0) return 0;
  const snapshot = (await cdp.send("DOMSnapshot.captureSnapshot", { computedStyles: [] })) as { documents: SnapshotDocument[]; strings: string[] };
  const holding = new Set(snapshot.strings.flatMap((text, i) => (values.some((v) => text.includes(v)) ? [i] : [])));
  if (holding.size === 0) return 0;
  const targets = new Set<number>();
  for (const { nodes } of snapshot.documents) {
    const ids = nodes.backendNodeId ?? [];
    const shows = (node: number) => {
      // A text node is drawn by its parent element; anything else (a field, an attribute's owner) by itself.
      const element = nodes.nodeType?.[node] === TEXT_NODE ? (nodes.parentIndex?.[node] ?? -1) : node;
      if (element >= 0 && ids[element] !== undefined) targets.add(ids[element]);
    };
    nodes.nodeValue?.forEach((value, node) => holding.has(value) && nodes.nodeType?.[node] === TEXT_NODE && shows(node));
    nodes.attributes?.forEach((pairs, node) => pairs.some((value, i) => i % 2 === 1 && holding.has(value)) && shows(node));
    for (const rare of [nodes.inputValue, nodes.textValue]) rare?.index.forEach((node, i) => holding.has(rare.value[i]!) && shows(node));
  }
  let covered = 0;
  for (const backendNodeId of targets) {
    // A node gone since the snapshot (the page changed) has nothing left to hide.
    const resolved = await cdp.send("DOM.resolveNode", { backendNodeId }).catch(() => null);
    const objectId = resolved?.object.objectId;
    if (!objectId) continue;
    const { result } = await cdp.send("Runtime.callFunctionOn", { objectId, functionDeclaration: BLUR, arguments: [{ value: MARK }], returnByValue: true }).catch(() => ({ result: { value: false } }));
    if (result.value === true) covered++;
    await cdp.send("Runtime.releaseObject", { objectId }).catch(() => undefined);
  }
  return covered;
}

/** Runs in the page on the element: blurs it unless it already is; true when it did. */
const BLUR = `function (mark) {
  if (!(this instanceof Element)) return false;
  if (this.hasAttribute(mark) && this.style.getPropertyValue("filter") === "blur(8px)") return false;
  this.setAttribute(mark, "");
  this.style.setProperty("filter", "blur(8px)", "important");
  return true;
}`;
