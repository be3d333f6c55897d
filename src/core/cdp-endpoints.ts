// The browsers a task may attach to over CDP: CDP_URL and CDP_ALLOWED_URLS, never an address a
// request names on its own (it would reach any DevTools port the server can). Tasks and events
// carry an endpoint without its secrets — user, password, query and fragment, where hosted
// browsers put their tokens — and the configured URL is looked up again when the browser opens.
import type { Config } from "./config.ts";

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** The configured endpoint a URL names, in full or redacted; null when it is not one of them. */
export function allowedEndpoint(config: Config, url: string): string | null {
  const allowed = [config.browser.cdpUrl, ...config.browser.cdpAllowedUrls].filter((u): u is string => Boolean(u));
  return allowed.find((a) => a === url || redactUrl(a) === redactUrl(url)) ?? null;
}
