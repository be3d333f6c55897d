// search: a web search (seed 001 §12.2), offered only when a search provider is configured.
import { z } from "zod";
import { BOTH, defineTool, failed } from "./tool.ts";

export const search = defineTool({
  name: "search",
  description: "Search the web when you do not know the address to open. Returns titles, addresses and snippets.",
  input: z.object({ query: z.string().min(1).max(400) }),
  modes: BOTH,
  async run({ query }, ctx) {
    if (!ctx.search) return failed("UNAVAILABLE", "No search provider is configured.");
    return { ok: true, data: { results: await ctx.search(query, ctx.signal), timestamp: new Date().toISOString() } };
  },
});
