// Renders an answer's Markdown as safe HTML: raw HTML in the text is shown as text, never
// parsed, and DOMPurify then removes anything that could still run (javascript: links and the
// like). Links open in a new tab.
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { useMemo, type ComponentProps } from "react";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const marked = new Marked({ gfm: true, breaks: true, renderer: { html: ({ text }) => escapeHtml(text) } });

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

export function toSafeHtml(markdown: string): string {
  return DOMPurify.sanitize(marked.parse(markdown, { async: false }), { USE_PROFILES: { html: true } });
}

export function Markdown({ text, className = "", ...props }: { text: string } & Omit<ComponentProps<"div">, "children">) {
  const html = useMemo(() => toSafeHtml(text), [text]);
  return <div className={`markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} {...props} />;
}
