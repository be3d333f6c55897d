// Runs in the page: the reader-mode text of the page (browser_readability_extract) by Mozilla's
// Readability on a copy of the document, paragraphs separated by a blank line; the body's text
// when it finds no article. Text over `maxBytes` is not returned, only its size.
import { Readability } from "@mozilla/readability";

const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TR|UL)$/;

export interface ReaderText {
  title: string | null;
  /** Null when over `maxBytes`, so a huge text never leaves the page. */
  text: string | null;
  bytes: number;
}

export function readerText({ maxBytes }: { maxBytes: number }): ReaderText {
  let article: ReturnType<Readability<Node>["parse"]> = null;
  try {
    article = new Readability<Node>(document.cloneNode(true) as Document, { serializer: (node) => node }).parse();
  } catch {
    // Readability assigns innerHTML, which a page enforcing Trusted Types forbids; the body's
    // text below is still worth having.
  }
  let text = "";
  if (article?.content) {
    const parts: string[] = [];
    walk(article.content, parts);
    text = tidy(parts.join(""));
  }
  if (!text) text = tidy(document.body?.innerText ?? "");
  const bytes = new TextEncoder().encode(text).length;
  return { title: article?.title || document.title || null, text: bytes <= maxBytes ? text : null, bytes };
}

// The article lives in a detached copy, where innerText has no layout to go by.
function walk(node: Node, out: string[]): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) out.push((child.nodeValue ?? "").replace(/\s+/g, " "));
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const block = BLOCK.test(child.nodeName);
    if (child.nodeName === "BR") out.push("\n");
    if (block) out.push("\n\n");
    walk(child, out);
    if (block) out.push("\n\n");
  }
}

const tidy = (text: string) => text.replace(/[^\S\n]+/g, " ").replace(/ *\n */g, "\n").replace(/\n{3,}/g, "\n\n").trim();
