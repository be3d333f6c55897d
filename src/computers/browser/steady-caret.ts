// A text caret that does not blink, in the browser contexts we launch. A blinking caret makes two
// captures of a page where nothing happened differ, and the effect check must then decode both
// to find that only the caret moved; a steady one leaves them the same bytes, which it need not
// decode (perception/screen-diff.ts). The caret stays shown: the model still sees where typing goes.
import type { BrowserContext } from "playwright-core";

// An adopted style sheet, not a <style> element: the page's DOM is not changed, so no mutation is
// counted (page-activity.ts), and pages that reset their own adopted sheets only get the blink back.
const STEADY_CARET = `(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(":root { caret-animation: manual; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
})()`;

/** Keeps the caret steady in every page the context opens from now on: call it before its first page. */
export async function steadyCaret(context: BrowserContext): Promise<void> {
  await context.addInitScript(STEADY_CARET);
}
