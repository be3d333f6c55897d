// ariaTree: the page as a model reads it (perception/page-view), the agent's main view of a page
// in `dom` mode (seed 001 §12.2): its elements with refs like [ref=e12], what matters first, within
// a budget of tokens. What does not fit is named at the end, with the arguments that show it. The
// same request again, on the same page, is answered with the changes when they are smaller.
import { z } from "zod";
import { viewDelta } from "../perception/page-view/delta.ts";
import { BOTH, defineTool, failed, pageOf } from "./tool.ts";

export const ariaTree = defineTool({
  name: "ariaTree",
  description: [
    "Get the page's elements as an outline: role, name and a ref like [ref=e12] that act can target; iframes and widgets included, without scrolling.",
    "A long page comes in parts, the dialog and what is on screen first; the last lines say what was left out and how to get it.",
    "Arguments, all optional: part (2, 3… for the next parts), section (a ref from the outline: only that part of the page), query (words: only the elements whose names hold them), urls (true to show links' addresses).",
  ].join(" "),
  input: z.object({
    part: z.number().int().min(1).max(1000).optional().describe("the part to show; 1 is the first"),
    section: z.string().regex(/^(f\d+)?e\d+$/, "must be a ref from the outline, like e12").optional().describe("a ref: show only that element's part of the page"),
    query: z.string().min(1).max(200).optional().describe("words to find elements by their names or text"),
    urls: z.boolean().optional().describe("show links' addresses"),
  }),
  modes: BOTH,
  looks: true,
  label: ({ part, section, query }) => ["ariaTree", section ? `section ${section}` : "", query ? JSON.stringify(query) : "", part && part > 1 ? `part ${part}` : ""].filter(Boolean).join(" "),
  async run(input, ctx) {
    const view = await pageOf(ctx).view({ ...input, budget: ctx.viewTokens });
    if (input.query && view.lines === 0) return failed("NOT_FOUND", `No element on the page has ${JSON.stringify(input.query)} in its name or text; try other words, or ariaTree without a query.`);
    // A view the model never got (the call ran out of time) is no base for changes.
    ctx.progress.check();
    const key = JSON.stringify([input.part ?? 1, input.section, input.query, input.urls ?? false]);
    const last = ctx.views.last;
    ctx.views.last = { key, text: view.text };
    const delta = last?.key === key ? await viewDelta(last.text, view.text, view.tokens) : null;
    const data = { pageUrl: view.url, elements: `${view.interactiveShown} of ${view.interactiveTotal} interactive`, more: view.more };
    return { ok: true, data: { ...data, tokens: delta?.tokens ?? view.tokens, ...(delta ? { changesOnly: true } : {}) }, text: delta?.text ?? view.text };
  },
});
