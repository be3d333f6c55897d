// The page bundle (page.js): injected into a task's tab on first use, in the extension's isolated
// world, where it leaves its functions for the worker to call through chrome.scripting.
import { readerText } from "./reader.ts";
import { scanDom, type Found, type Scope } from "../../../src/injected/page-scan.ts";
import { PAGE_GLOBAL } from "../shared/messages.ts";
import { domClick, domInput, find, focusForTyping, locate, type TargetArgs } from "./target.ts";

/** The server's own scanner; §4.2's lists carry no XPath where it has none (inside a shadow root). */
function scan(mode: "index" | "scan", args: { scope: Scope; attr: string }) {
  return scanDom({ mode, ...args }).found.map(({ xpath, ...rest }): Omit<Found, "xpath"> & { xpath?: string } => (xpath === null ? rest : { ...rest, xpath }));
}

const api = {
  domIndex: (args: { scope: Scope; attr: string }) => scan("index", args),
  xpathScan: (args: { scope: Scope; attr: string }) => scan("scan", args),
  locate,
  domClick,
  focusForTyping,
  domInput,
  readerText,
  html({ xpath }: { xpath?: string }): string {
    if (xpath === undefined) {
      const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>\n` : "";
      return doctype + document.documentElement.outerHTML;
    }
    return find({ xpath, attr: "" }).outerHTML;
  },
  ping: () => true,
};

export type PageApi = typeof api;
export type PageFunction = keyof PageApi;
export type { TargetArgs };

(globalThis as unknown as Record<string, unknown>)[PAGE_GLOBAL] = api;
