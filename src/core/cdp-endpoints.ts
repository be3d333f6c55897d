// The browsers a task may attach to over CDP: CDP_URL (or, with ATTACH_CHROME, the person's running
// Chrome) and CDP_ALLOWED_URLS, never an address a request names on its own (it would reach any
// DevTools port the server can). Tasks and events carry an endpoint without its secrets — user,
// password, query and fragment, where hosted browsers put their tokens — and the configured URL is
// looked up again when the browser opens.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "./config.ts";

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** Where Chrome keeps its user data (its profiles) on each system when nobody moved it. */
export function defaultChromeProfile(platform: NodeJS.Platform, env: Record<string, string | undefined>): string {
  const home = env.HOME ?? env.USERPROFILE ?? "";
  if (platform === "win32") return path.win32.join(env.LOCALAPPDATA ?? path.win32.join(home, "AppData", "Local"), "Google", "Chrome", "User Data");
  if (platform === "darwin") return path.posix.join(home, "Library", "Application Support", "Google", "Chrome");
  return path.posix.join(env.XDG_CONFIG_HOME ?? path.posix.join(home, ".config"), "google-chrome");
}

/**
 * The person's running Chrome, with ATTACH_CHROME: the `file:` URL of its profile's
 * DevToolsActivePort, where Chrome writes the port of the DevTools it serves once they allow it.
 * The address itself changes with every start of Chrome, so it is read when a task attaches.
 */
export function runningChromeEndpoint(config: Config): string | null {
  const profile = config.browser.chromeProfileDir;
  return config.browser.attachChrome && profile ? pathToFileURL(path.join(profile, "DevToolsActivePort")).href : null;
}

/** The browser a task drives unless its request names another: CDP_URL, or the person's running Chrome. */
export function configuredEndpoint(config: Config): string | undefined {
  return config.browser.cdpUrl ?? runningChromeEndpoint(config) ?? undefined;
}

/** The configured endpoint a URL names, in full or redacted; null when it is not one of them. */
export function allowedEndpoint(config: Config, url: string): string | null {
  const allowed = [configuredEndpoint(config), ...config.browser.cdpAllowedUrls].filter((u): u is string => Boolean(u));
  return allowed.find((a) => a === url || redactUrl(a) === redactUrl(url)) ?? null;
}
