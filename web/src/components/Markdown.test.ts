// Answers are Markdown from a model: rendered, but never able to run anything.
import { describe, expect, it } from "vitest";
import { toSafeHtml } from "./Markdown.tsx";

describe("toSafeHtml", () => {
  it("renders Markdown", () => {
    expect(toSafeHtml("**Done.**\n\n- one\n- two")).toBe("<p><strong>Done.</strong></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n");
  });

  it("shows raw HTML as text instead of parsing it", () => {
    const html = toSafeHtml('Saved <img src=x onerror="alert(1)"> <script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain("&lt;img src=x");
  });

  it("drops javascript: links and opens the others in a new tab", () => {
    expect(toSafeHtml("[bad](javascript:alert(1))")).not.toContain("javascript:");
    expect(toSafeHtml("[docs](https://example.org)")).toBe('<p><a href="https://example.org" target="_blank" rel="noopener noreferrer">docs</a></p>\n');
  });
});
