// Builds the chat assistant's model from the configuration. Unless CHAT_* say otherwise it uses
// the planner's own endpoint, key and model when they speak a chat protocol; OpenAI's and
// Gemini's computer-use models cannot chat, so with those it takes a chat model on the same account.
import type { Config } from "../../core/config.ts";
import { PROVIDER_TABLE } from "../../protocol/index.ts";
import { AnthropicChat } from "./anthropic-chat.ts";
import type { ChatModel } from "./chat-model.ts";
import { GeminiChat } from "./gemini-chat.ts";
import { OpenAIChat } from "./openai-chat.ts";

/** The providers whose protocol chats; the table names each one's chat model and endpoint. */
type ChatProvider = "qwen" | "openai" | "anthropic" | "gemini";

function chatDefaults(provider: ChatProvider): { name: string; baseUrl: string } {
  return { name: PROVIDER_TABLE[provider].chat, baseUrl: PROVIDER_TABLE[provider].baseUrl };
}

export function createChatModel(config: Config): ChatModel {
  const { provider, name, baseUrl, apiKey } = chatEndpoint(config);
  const { model } = config;
  const policy = { timeoutMs: model.timeoutMs, retries: model.httpRetries, backoffMs: model.backoffMs };
  switch (provider) {
    case "anthropic":
      return new AnthropicChat({ baseUrl, apiKey, model: name, maxTokens: model.maxTokens, policy });
    case "gemini":
      return new GeminiChat({ baseUrl, apiKey, model: name, policy });
    case "qwen":
    case "openai":
      return new OpenAIChat({ baseUrl, apiKey, model: name, policy });
  }
}

/** DashScope's text-only chat models (`qwen-plus`, `qwen-max-latest`…); its vision ones are `qwen-vl-…`. */
const TEXT_ONLY = /^qwen-(plus|max|turbo|long)(-|$)/;

/**
 * Whether the chat model takes images: AGENT_VISION, except that DashScope's text-only models
 * (`qwen-plus` is the chat model with a UI-TARS or OpenCUA planner unless another is chosen) never do.
 */
export function chatTakesImages(config: Config): boolean {
  return config.agent.vision && !TEXT_ONLY.test(chatEndpoint(config).name);
}

/** The chat assistant's protocol, model, endpoint and key, as the configuration resolves them. */
export function chatEndpoint(config: Config): { provider: ChatProvider; name: string; baseUrl: string; apiKey: string } {
  const { model, chat, providers } = config;
  const provider = chat.provider ?? (model.provider === "anthropic" || model.provider === "openai" || model.provider === "gemini" ? model.provider : "qwen");
  // qwen and som planners talk to an OpenAI-compatible chat model already; UI-TARS and OpenCUA servers do not chat.
  const shared = provider === model.provider || (provider === "qwen" && model.provider === "som");
  const own = providers[provider];
  const planned = shared ? model.name : own.name;
  // Gemini's dedicated computer-use models answer only through the computer; its Flash and Pro models also chat.
  const planning = provider === "openai" || (provider === "gemini" && planned?.includes("computer-use")) ? undefined : planned;
  const name = chat.name ?? planning ?? chatDefaults(provider).name;
  const baseUrl = chat.baseUrl ?? (shared ? model.baseUrl : (own.baseUrl ?? chatDefaults(provider).baseUrl));
  const apiKey = chat.apiKey ?? (shared ? model.apiKey : own.apiKey) ?? "";
  return { provider, name, baseUrl, apiKey };
}

