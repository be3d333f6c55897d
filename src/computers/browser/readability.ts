// Reader-mode text of a page (seed 004 §4.2 browser_readability_extract): Mozilla's Readability run
// inside the page on a copy of the document; small texts come back inline, large ones as an artifact.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Readability } from "@mozilla/readability";
import type { Page } from "playwright-core";
import { AppError } from "../../core/errors.ts";
import type { ReadabilityResult } from "../computer.ts";

export type { ReadabilityResult };

// The library is evaluated in the page as source text through CDP, which a page's
// Content-Security-Policy does not govern (a <script> tag or eval would be blocked). The local
// `module` keeps its export line from touching a page global of that name.
const LIBRARY = `(function () {
var module;
${readFileSync(createRequire(import.meta.url).resolve("@mozilla/readability/Readability.js"), "utf8")}
return Readability;
})()`;

/**
 * The page's main text, whitespace collapsed and paragraphs separated by a blank line; the whole
 * body's text when Readability finds no article. At `inlineLimitBytes` or more the text is handed
 * to `saveArtifact` and only its id is returned; above `maxBytes` it is refused.
 * @example const { title, text } = await readability(page, { saveArtifact: (t) => store.save(t) });
 */
export async function readability(
  page: Page,
  { inlineLimitBytes = 256 * 1024, maxBytes = 2 * 1024 * 1024, saveArtifact }: { inlineLimitBytes?: number; maxBytes?: number; saveArtifact: (text: string) => Promise<string> },
): Promise<ReadabilityResult> {
  const { title, text, bytes } = await page.evaluate<Extracted>(`(${extractText.toString()})(${LIBRARY}, ${maxBytes})`);
  if (text === null) {
    throw new AppError(
      "READABILITY_TOO_LARGE",
      `The page's readable text is ${megabytes(bytes)}, over the ${megabytes(maxBytes)} limit for text extraction. Work from the screenshot and the ARIA tree, or open a narrower page (one article or section).`,
    );
  }
  const found = { ...(title ? { title } : {}), contentLengthBytes: bytes };
  if (bytes >= inlineLimitBytes) return { ...found, truncated: true, artifactId: await saveArtifact(text) };
  return { ...found, text, truncated: false };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Extracted {
  title: string | null;
  /** Null when over `maxBytes`, so a huge text never crosses the wire. */
  text: string | null;
  bytes: number;
}

// Runs inside the page. Helpers are object methods, not named functions: tsx wraps those in
// `__name(…)`, which does not exist in the page.
function extractText(Reader: typeof Readability, maxBytes: number): Extracted {
  const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TR|UL)$/;
  const h = {
    // The article lives in a detached copy, where innerText has no layout to go by.
    walk(node: Node, out: string[]): void {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) out.push((child.nodeValue ?? "").replace(/\s+/g, " "));
        if (child.nodeType !== Node.ELEMENT_NODE) continue;
        const block = BLOCK.test(child.nodeName);
        if (child.nodeName === "BR") out.push("\n");
        if (block) out.push("\n\n");
        h.walk(child, out);
        if (block) out.push("\n\n");
      }
    },
    tidy(text: string): string {
      return text.replace(/[^\S\n]+/g, " ").replace(/ *\n */g, "\n").replace(/\n{3,}/g, "\n\n").trim();
    },
  };
  let article: ReturnType<Readability<Node>["parse"]> = null;
  try {
    article = new Reader<Node>(document.cloneNode(true) as Document, {
      serializer(node) {
        return node;
      },
    }).parse();
  } catch {
    // Readability assigns innerHTML, which a page enforcing Trusted Types forbids; the body's
    // text below is still worth having.
  }
  let text = "";
  if (article?.content) {
    const parts: string[] = [];
    h.walk(article.content, parts);
    text = h.tidy(parts.join(""));
  }
  if (!text) text = h.tidy(document.body?.innerText ?? "");
  const bytes = new TextEncoder().encode(text).length;
  return { title: article?.title || document.title || null, text: bytes <= maxBytes ? text : null, bytes };
}
