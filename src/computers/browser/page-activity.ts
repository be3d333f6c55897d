// What a page did after an action, as the browser sees it: requests still in flight (so settling
// can wait for the network to go quiet) and DOM mutations, navigation and scrolling (so an
// action whose effect is too small to see on screen still counts as having one).
import type { BrowserContext, Page, Request } from "playwright-core";
import type { HitTest, QuietEffect, StructuralEffect } from "../computer.ts";
import { inOrder } from "./page-effects.ts";

// A hidden counter the page's own scripts are unlikely to touch. It counts DOM mutations, the
// input/change events of form controls, whose new state (a ticked checkbox) is not a mutation,
// and focus moving into a field (a click into a field has that effect and no other); `at` is
// when it last counted (the page's clock), so settling can tell whether the DOM is still moving.
// Shadow roots, open or closed, are watched too: a document's observer does not see into them, and
// a control's `change` does not leave its root. Each root is caught as it is attached (the page's
// scripts run after this one), or as a declarative one arrives with its host.
const COUNTER = "__easyagentcuMutations";
const COUNT_MUTATIONS = `(() => {
  if (window.${COUNTER} !== undefined) return;
  const counter = { n: 0, at: -Infinity };
  const count = (n) => { counter.n += n; counter.at = performance.now(); };
  Object.defineProperty(window, "${COUNTER}", { value: counter, enumerable: false });
  const field = "textarea, select, [contenteditable], input:not([type=button], [type=submit], [type=reset], [type=checkbox], [type=radio], [type=image])";
  const watched = new WeakSet();
  const observer = new MutationObserver((records) => {
    count(records.length);
    for (const record of records) for (const node of record.addedNodes) if (node instanceof Element) watchTree(node);
  });
  const watch = (root) => {
    if (watched.has(root)) return;
    watched.add(root);
    for (const type of ["input", "change"]) root.addEventListener(type, () => count(1), true);
    root.addEventListener("focusin", (e) => { const target = e.composedPath()[0]; if (target instanceof Element && target.matches(field)) count(1); }, true);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  const watchTree = (element) => {
    for (const el of [element, ...element.querySelectorAll("*")]) if (el.shadowRoot) { watch(el.shadowRoot); watchTree(el.shadowRoot); }
  };
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    watch(root);
    return root;
  };
  const start = () => { watch(document); if (document.documentElement) watchTree(document.documentElement); };
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start, { once: true });
})()`;

/** A frame at 60 Hz: a DOM that has not changed for this long has stopped moving. */
const FRAME_MS = 16;
/** How long past its own cap a DOM wait may take to answer before it is left (a page still navigating away). */
const ANSWER_GRACE_MS = 1_000;

interface Snapshot {
  url: string;
  mutations: number;
  scrollX: number;
  scrollY: number;
}

export class PageActivity {
  private readonly inflight = new Map<Request, number>();
  private readonly quietWaiters = new Set<() => void>();

  constructor(context: BrowserContext) {
    context.on("request", (request) => this.inflight.set(request, Date.now()));
    const done = (request: Request) => {
      this.inflight.delete(request);
      for (const wake of this.quietWaiters) wake();
    };
    context.on("requestfinished", done);
    context.on("requestfailed", done);
  }

  /** Counts in every page the context opens from now on, and in the pages it already has. */
  static async install(context: BrowserContext): Promise<PageActivity> {
    await context.addInitScript(COUNT_MUTATIONS);
    await Promise.all(context.pages().map((page) => page.evaluate(COUNT_MUTATIONS).catch(() => undefined)));
    return new PageActivity(context);
  }

  /** Resolves once no request started at or after `since` is in flight, or after `capMs`. */
  networkQuiet(since: number, capMs: number): Promise<void> {
    const busy = () => [...this.inflight.values()].some((started) => started >= since);
    if (!busy()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.quietWaiters.delete(check);
        resolve();
      };
      const check = () => {
        if (!busy()) finish();
      };
      const timer = setTimeout(finish, capMs);
      this.quietWaiters.add(check);
    });
  }

  /**
   * Resolves once a frame has gone by without a DOM change (at once when nothing changed in the
   * last frame's time), or after `capMs`: what an action set off in the DOM, in its handlers and
   * the frames they asked for, has happened.
   */
  async domQuiet(page: Page, capMs: number): Promise<void> {
    // The page answers only once it can: a page navigating away answers once the next one commits.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs + ANSWER_GRACE_MS)));
    const quiet = page
      .evaluate(
        ({ counter, capMs, frameMs }) =>
          new Promise<void>((resolve) => {
            const c = (window as unknown as Record<string, { n: number; at: number } | undefined>)[counter];
            let done = false;
            const finish = () => {
              done = true;
              clearTimeout(timer);
              resolve();
            };
            // A page that draws no frames (hidden) would never call back, and one that changes every
            // frame never settles: the cap ends the wait, and the loop with it.
            const timer = setTimeout(finish, capMs);
            if (!c || performance.now() - c.at >= frameMs) return finish();
            let seen = c.n;
            const check = () => {
              if (done) return;
              if (c.n === seen) return finish();
              seen = c.n;
              requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          }),
        { counter: COUNTER, capMs, frameMs: FRAME_MS },
      )
      .catch(() => undefined);
    await Promise.race([quiet, late]).finally(() => clearTimeout(timer));
  }

  /** Reads the page's state now; `compare` tells what changed since. */
  async snapshot(page: Page): Promise<Snapshot> {
    const state = await page
      .evaluate(`({ mutations: window.${COUNTER} ? window.${COUNTER}.n : 0, scrollX: window.scrollX, scrollY: window.scrollY })`)
      .catch(() => ({ mutations: 0, scrollX: 0, scrollY: 0 }));
    return { url: page.url(), ...(state as Omit<Snapshot, "url">) };
  }
}

/** What changed between two snapshots, with what the browser heard meanwhile (`heard`, page-effects.ts). */
export function compare(before: Snapshot, after: Snapshot, heard: QuietEffect[]): StructuralEffect {
  // Another page is the screen now, or the same one holds another document.
  const navigated = before.url !== after.url;
  return {
    // A new document restarts the counter; its mutations are not comparable.
    mutations: navigated ? 0 : Math.max(0, after.mutations - before.mutations),
    scrolled: !navigated && (before.scrollX !== after.scrollX || before.scrollY !== after.scrollY),
    quiet: navigated ? inOrder([...heard, "navigation"]) : heard,
  };
}

/**
 * How far (CSS px) a held element's centre may move under the pointer and still count as in
 * place: a hover that grows a button or lifts it a little leaves it where the click lands.
 */
const IN_PLACE_PX = 4;

/**
 * Remembers an element and its box: the one at a CSS point, or the one an XPath names (the
 * element a click is meant for). The returned check says whether that element (or one inside it)
 * is at the point and has not moved — its box unmoved, or only grown, shrunk or nudged around its
 * centre by a hover — or, when a re-render replaced it, whether its like (same tag and text, same
 * box) is there; and where its centre is now if it is still shown.
 */
export async function holdElementAt(page: Page, point: { x: number; y: number }, xpath?: string): Promise<() => Promise<HitTest>> {
  const held = await page.evaluateHandle(
    ({ x, y, xpath }) => {
      const named = xpath ? document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue : null;
      const element = named instanceof Element ? named : document.elementFromPoint(x, y);
      return element ? { element, tag: element.tagName, text: element.textContent, box: element.getBoundingClientRect().toJSON() as DOMRect } : null;
    },
    { ...point, xpath: xpath ?? null },
  );
  return async () => {
    try {
      return await page.evaluate(
        ([h, { x, y }, inPlacePx]) => {
          if (!h) return { onTarget: false, now: null };
          const under = document.elementFromPoint(x, y);
          const box = h.element.getBoundingClientRect();
          // No functions are declared in here: tsx, which runs the server, would name them with a helper the page lacks.
          const unmoved = Math.abs(box.x - h.box.x) < 1 && Math.abs(box.y - h.box.y) < 1;
          const centreDrift = Math.hypot(box.x + box.width / 2 - (h.box.x + h.box.width / 2), box.y + box.height / 2 - (h.box.y + h.box.height / 2));
          const stays = under !== null && (under === h.element || h.element.contains(under)) && (unmoved || centreDrift <= inPlacePx);
          const like = under === null || h.element.isConnected ? null : under.getBoundingClientRect();
          const redrawn = like !== null && under!.tagName === h.tag && under!.textContent === h.text && Math.abs(like.x - h.box.x) < 1 && Math.abs(like.y - h.box.y) < 1 && Math.abs(like.width - h.box.width) < 1 && Math.abs(like.height - h.box.height) < 1;
          const shown = h.element.isConnected && box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
          return { onTarget: stays || redrawn, now: shown ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null };
        },
        [held, point, IN_PLACE_PX] as const,
      );
    } finally {
      // Let go without waiting: nothing reads the element again, and the click waits on this check.
      void held.dispose().catch(() => undefined);
    }
  };
}
