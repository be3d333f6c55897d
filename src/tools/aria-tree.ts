// ariaTree: the page's accessibility tree with element refs, the agent's main view of a page in
// `dom` mode (seed 001 §12.2). Refs stay valid until the next ariaTree.
import { z } from "zod";
import { BOTH, defineTool, pageOf } from "./tool.ts";

export const ariaTree = defineTool({
  name: "ariaTree",
  description:
    "Get the page's accessibility tree as text: every element with its role, name and a ref like [ref=e12] that act can target. Covers the whole page, iframes and widgets included, without scrolling.",
  input: z.object({}),
  modes: BOTH,
  looks: true,
  async run(_input, ctx) {
    const tree = await pageOf(ctx).ariaTree();
    return { ok: true, data: { content: tree.content, pageUrl: tree.url } };
  },
});
