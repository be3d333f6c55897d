// Whether a page holds a text anywhere the agent could have read it: its text, its fields' values,
// its attributes (a link's address among them) and its documents' addresses, in every document of
// its process (same-process frames too). Read from outside through CDP `DOMSnapshot`, so the page
// cannot see what is looked for. An approval uses it to tell the person an action follows the page.
import type { CDPSession } from "playwright-core";

/** For each of `texts`, whether the page holds it, letter case aside. */
export async function pageShows(cdp: CDPSession, texts: readonly string[]): Promise<boolean[]> {
  if (texts.length === 0) return [];
  const { strings } = (await cdp.send("DOMSnapshot.captureSnapshot", { computedStyles: [] })) as { strings: string[] };
  const held = strings.map((s) => s.toLowerCase());
  return texts.map((text) => {
    const wanted = text.toLowerCase();
    return held.some((s) => s.includes(wanted));
  });
}
