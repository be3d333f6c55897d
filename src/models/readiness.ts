// Whether the configured models can be asked at all, so that a first run without a key, or with
// a local model server that is not up, says which setting to change — at start in the log and in
// the UI's banner (GET /api/model-status) — instead of failing its first answer with a DNS error.
// A provider in the cloud needs a key; every endpoint must answer HTTP, sent the key as its model
// calls send it. Any status will do but 401, the one status every provider gives a key it does not
// take; a 404 (no model list there) or a 403 (a proxy's rule) says nothing about the key.
import type { Config } from "../core/config.ts";
import { isIP } from "node:net";
import { redactUrl } from "../core/cdp-endpoints.ts";
import { firstLine } from "../core/errors.ts";
import { isPrivateAddress } from "../core/network-policy.ts";
import { PROVIDER_TABLE, type ModelStatusReply, type Wire } from "../protocol/index.ts";
import { ANTHROPIC_VERSION } from "./anthropic/messages.ts";
import { chatEndpoint } from "./chat/index.ts";

const PROBE_TIMEOUT_MS = 3_000;

/** How an endpoint is asked and takes its key. */

interface Endpoint {
  wire: Wire;
  baseUrl: string;
  apiKey: string;
  keySetting: string;
  urlSetting: string;
}

/** The endpoints a task and a chat answer use: the chat assistant's always, the planner's when tasks act on the screen. */
function modelEndpoints(config: Config): Endpoint[] {
  const chat = chatEndpoint(config);
  const { model } = config;
  // An OpenAI-compatible endpoint may be DashScope, a gateway or a server of one's own: the generic setting is named.
  const facts = PROVIDER_TABLE[model.provider];
  const plannerKey = facts.wire === "chat-completions" ? "MODEL_API_KEY" : facts.settings.key;
  const planner: Endpoint = { wire: facts.wire, baseUrl: model.baseUrl, apiKey: model.apiKey, keySetting: plannerKey, urlSetting: "MODEL_BASE_URL" };
  // The chat assistant talks to the planner's endpoint, or to its provider's own (OPENAI_*, DASHSCOPE_*…), or to CHAT_*.
  const shared = config.chat.baseUrl === undefined && config.chat.apiKey === undefined && chat.baseUrl === model.baseUrl && chat.apiKey === model.apiKey;
  const providerKey = PROVIDER_TABLE[chat.provider].settings.key;
  const talker: Endpoint = {
    wire: PROVIDER_TABLE[chat.provider].wire,
    baseUrl: chat.baseUrl,
    apiKey: chat.apiKey,
    keySetting: shared ? plannerKey : config.chat.apiKey !== undefined ? "CHAT_API_KEY" : `${providerKey} (or CHAT_API_KEY)`,
    urlSetting: shared ? "MODEL_BASE_URL" : "CHAT_BASE_URL",
  };
  const endpoints = config.agent.mode === "actions" ? [planner, talker] : [talker];
  return endpoints.filter((e, i) => endpoints.findIndex((o) => o.baseUrl === e.baseUrl && o.apiKey === e.apiKey) === i);
}

/** Endpoints are named without user, password or query (where some proxies carry keys). */
export async function modelReadiness(config: Config, fetchImpl: typeof fetch = fetch): Promise<ModelStatusReply> {
  const endpoints = modelEndpoints(config);
  for (const endpoint of endpoints) {
    if (!endpoint.apiKey && !isLocal(endpoint.baseUrl)) {
      const at = redactUrl(endpoint.baseUrl);
      return { ready: false, problem: "no_key", setting: endpoint.keySetting, endpoint: at, detail: `${at} needs an API key, and ${endpoint.keySetting} is not set.` };
    }
  }
  const probes = await Promise.all(endpoints.map(async (endpoint) => ({ endpoint, answer: await probe(endpoint, fetchImpl) })));
  const down = probes.find((p) => p.answer.kind === "down");
  if (down?.answer.kind === "down") {
    const at = redactUrl(down.endpoint.baseUrl);
    return { ready: false, problem: "unreachable", setting: down.endpoint.urlSetting, endpoint: at, detail: `${at} does not answer: ${down.answer.why}` };
  }
  const refused = probes.find((p) => p.answer.kind === "refused");
  if (!refused) return { ready: true };
  const at = redactUrl(refused.endpoint.baseUrl);
  const key = refused.endpoint.apiKey ? "refuses the key it was given" : "asks for a key";
  return { ready: false, problem: "key_refused", setting: refused.endpoint.keySetting, endpoint: at, detail: `${at} ${key} (HTTP 401); check ${refused.endpoint.keySetting}.` };
}

type Answer = { kind: "answered" } | { kind: "refused" } | { kind: "down"; why: string };

/** Asks the endpoint's model list with its key, as its model calls send it. */
async function probe(endpoint: Endpoint, fetchImpl: typeof fetch): Promise<Answer> {
  const { wire, apiKey } = endpoint;
  const headers: Record<string, string> = !apiKey
    ? {}
    : wire === "anthropic-messages"
      ? { "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION }
      : wire === "gemini"
        ? { "x-goog-api-key": apiKey }
        : { authorization: `Bearer ${apiKey}` };
  try {
    const url = new URL(endpoint.baseUrl);
    url.pathname = `${url.pathname.replace(/\/+$/, "")}${wire === "anthropic-messages" ? "/v1/models" : "/models"}`;
    const response = await fetchImpl(url, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 401 ? { kind: "refused" } : { kind: "answered" };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { kind: "down", why: cause?.code ?? cause?.message ?? firstLine(error) };
  }
}

/** A model server on this machine or the local network (Ollama, vLLM, LM Studio) needs no key. */
function isLocal(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  return isPrivateAddress(host) || host === "localhost" || (isIP(host) === 0 && (!host.includes(".") || host.endsWith(".local")));
}
