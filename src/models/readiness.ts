// Whether the configured models can be asked at all, so that a first run without a key, or with
// a local model server that is not up, says which setting to change — at start in the log and in
// the UI's banner (GET /api/model-status) — instead of failing its first answer with a DNS error.
// A provider in the cloud needs a key; every endpoint must answer HTTP (any status will do: the
// check is about reaching it, not about the key being right).
import type { Config } from "../core/config.ts";
import { firstLine } from "../core/errors.ts";
import type { ModelStatusReply } from "../protocol/index.ts";
import { chatEndpoint } from "./chat/index.ts";

const PROBE_TIMEOUT_MS = 3_000;

interface Endpoint {
  /** Who uses it, for the log: the planner or the chat assistant. */
  role: "planner" | "chat";
  anthropic: boolean;
  baseUrl: string;
  apiKey: string;
  keySetting: string;
  urlSetting: string;
}

/** The endpoints a task and a chat answer use: the chat assistant's always, the planner's when tasks act on the screen. */
export function modelEndpoints(config: Config): Endpoint[] {
  const chat = chatEndpoint(config);
  const { model } = config;
  const keyOf = (provider: string) => (provider === "anthropic" ? "ANTHROPIC_API_KEY" : provider === "openai" ? "OPENAI_API_KEY" : "MODEL_API_KEY");
  const planner: Endpoint = { role: "planner", anthropic: model.provider === "anthropic", baseUrl: model.baseUrl, apiKey: model.apiKey, keySetting: keyOf(model.provider), urlSetting: "MODEL_BASE_URL" };
  const own = config.chat.baseUrl !== undefined || config.chat.apiKey !== undefined;
  const talker: Endpoint = {
    role: "chat",
    anthropic: chat.provider === "anthropic",
    baseUrl: chat.baseUrl,
    apiKey: chat.apiKey,
    keySetting: own ? "CHAT_API_KEY" : keyOf(chat.provider),
    urlSetting: config.chat.baseUrl !== undefined ? "CHAT_BASE_URL" : "MODEL_BASE_URL",
  };
  const endpoints = config.agent.mode === "actions" ? [planner, talker] : [talker];
  return endpoints.filter((e, i) => endpoints.findIndex((o) => o.baseUrl === e.baseUrl && o.apiKey === e.apiKey) === i);
}

export async function modelReadiness(config: Config, fetchImpl: typeof fetch = fetch): Promise<ModelStatusReply> {
  for (const endpoint of modelEndpoints(config)) {
    if (!endpoint.apiKey && !isLocal(endpoint.baseUrl)) {
      return { ready: false, problem: "no_key", setting: endpoint.keySetting, endpoint: endpoint.baseUrl, detail: `${endpoint.baseUrl} needs an API key, and ${endpoint.keySetting} is not set.` };
    }
  }
  const probes = await Promise.all(modelEndpoints(config).map(async (endpoint) => ({ endpoint, error: await unreachable(endpoint, fetchImpl) })));
  const down = probes.find((p) => p.error !== null);
  if (!down) return { ready: true };
  const { endpoint, error } = down;
  return { ready: false, problem: "unreachable", setting: endpoint.urlSetting, endpoint: endpoint.baseUrl, detail: `${endpoint.baseUrl} does not answer: ${error}` };
}

/** Why the endpoint cannot be reached, or null when it answered. */
async function unreachable(endpoint: Endpoint, fetchImpl: typeof fetch): Promise<string | null> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}${endpoint.anthropic ? "/v1/models" : "/models"}`;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? firstLine(error);
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
  return (
    host === "localhost" ||
    host === "::1" ||
    !host.includes(".") ||
    host.endsWith(".local") ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}
