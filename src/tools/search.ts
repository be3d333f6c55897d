// search: a web search (seed 001 §12.2), offered only when a search provider is configured.
import { z } from "zod";
import type { Config } from "../core/config.ts";
import { braveSearch } from "./brave-search.ts";
import { BOTH, defineTool, failed, labelled, type ToolContext } from "./tool.ts";

/** The configured search provider for the tools' context, if any. */
export function webSearch(config: Config): ToolContext["search"] {
  const { agent, model } = config;
  return agent.searchApiKey ? braveSearch(agent.searchApiKey, agent.searchBaseUrl, model.timeoutMs) : undefined;
}

export const search = defineTool({
  name: "search",
  description: "Search the web when you do not know the address to open. Returns titles, addresses and snippets.",
  input: z.object({ query: z.string().min(1).max(400) }),
  modes: BOTH,
  // It changes nothing on the page: Run again does not search again.
  looks: true,
  label: ({ query }) => labelled("search", query),
  async run({ query }, ctx) {
    if (!ctx.search) return failed("UNAVAILABLE", "No search provider is configured.");
    return { ok: true, data: { results: await ctx.search(query, ctx.progress.signal), timestamp: new Date().toISOString() } };
  },
});
