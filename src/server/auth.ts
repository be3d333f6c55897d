// Sign-in for a server that others on the network can reach: every request carries the server's
// token, as a cookie that `/login?token=…` sets (the link `serve` prints) or as a bearer header.
// On loopback without a token configured, nothing is asked. Apart from sign-in, every request
// that changes state carries the per-install token. The extension's WebSocket is asked alike.
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { INSTALL_TOKEN_HEADER } from "../protocol/index.ts";

const COOKIE = "easyagentcu_token";

export function signIn(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.path === "/login") {
      if (!sameToken(c.req.query("token"), token)) return c.text("This sign-in link is not valid; use the one the server printed.", 401);
      setCookie(c, COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
      return c.redirect("/");
    }
    if (signedIn(c, token)) return next();
    const message = "Sign in first: open the link the server printed when it started (…/login?token=…).";
    return c.req.path.startsWith("/api/") ? c.json({ error: { code: "UNAUTHORIZED", message } }, 401) : c.text(message, 401);
  };
}

/** Whether a request carries the sign-in token: the sign-in link's cookie or a bearer header. */
export function signedIn(c: Context, token: string): boolean {
  return carriesSignIn(getCookie(c, COOKIE), c.req.header("authorization"), token);
}

/**
 * Whether a WebSocket upgrade (the extension's) is signed in as the API's requests are: by the
 * sign-in cookie or a bearer header, or — a browser's WebSocket can set no header — by the sign-in
 * token in the `signin` query parameter.
 */
export function upgradeSignedIn(request: IncomingMessage, query: URLSearchParams, token: string): boolean {
  const cookie = new RegExp(`(?:^|;\\s*)${COOKIE}=([^;]*)`).exec(request.headers.cookie ?? "")?.[1];
  return carriesSignIn(cookie, request.headers.authorization, token) || sameToken(query.get("signin"), token);
}

function carriesSignIn(cookie: string | undefined, authorization: string | undefined, token: string): boolean {
  const bearer = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  return sameToken(cookie, token) || sameToken(bearer, token);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every API request that changes state carries the per-install token (store/install-token.ts) in
 * the `x-easyagentcu-token` header: the UI reads it from its page, scripts from the data dir. A
 * page that can send requests here but was never served the UI cannot change anything.
 */
export function changesNeedToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    if (isInstallToken(c.req.header(INSTALL_TOKEN_HEADER), token)) return next();
    const message = `This request changes state, so it needs the ${INSTALL_TOKEN_HEADER} header: the UI sends it; a script reads it from the data dir's install-token file.`;
    return c.json({ error: { code: "FORBIDDEN", message } }, 403);
  };
}

/** Whether `given` is the install token, compared in constant time. */
export function isInstallToken(given: string | undefined | null, token: string): boolean {
  return sameToken(given, token);
}

/** Whether `given` is `token`, compared in constant time. */
function sameToken(given: string | undefined | null, token: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
