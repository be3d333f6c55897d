// The search tool's provider: Brave's Web Search API (`GET /web/search` with the
// X-Subscription-Token header), reduced to titles, addresses and snippets.
import { z } from "zod";
import { AppError } from "../core/errors.ts";

const replySchema = z.object({
  web: z.object({ results: z.array(z.object({ title: z.string(), url: z.string(), description: z.string().optional() })) }).optional(),
});

export function braveSearch(apiKey: string, baseUrl: string, timeoutMs: number) {
  return async (query: string, signal: AbortSignal) => {
    const url = `${baseUrl.replace(/\/+$/, "")}/web/search?q=${encodeURIComponent(query)}&count=10`;
    const response = await fetch(url, {
      headers: { accept: "application/json", "x-subscription-token": apiKey },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    if (!response.ok) throw new AppError("ACTION_FAILED", `The search answered HTTP ${response.status}.`);
    const reply = replySchema.safeParse(await response.json().catch(() => null));
    if (!reply.success) throw new AppError("ACTION_FAILED", "The search answered something that is not a web search result.");
    return (reply.data.web?.results ?? []).map((r) => ({ title: r.title, url: r.url, snippet: r.description ?? "" }));
  };
}
