// Builds the chat assistant's model from the configuration. Unless CHAT_* say otherwise it uses
// the planner's own endpoint, key and model when they speak a chat protocol; OpenAI's
// computer-use model cannot chat, so with `openai` it takes a chat model on the same account.
import type { Config } from "../../core/config.ts";
import { AnthropicChat } from "./anthropic-chat.ts";
import type { ChatModel } from "./chat-model.ts";
import { OpenAIChat } from "./openai-chat.ts";

const CHAT_DEFAULTS = {
  qwen: { name: "qwen-plus", baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1" },
  openai: { name: "gpt-4.1", baseUrl: "https://api.openai.com/v1" },
  anthropic: { name: "claude-sonnet-4-5", baseUrl: "https://api.anthropic.com" },
} as const;

export function createChatModel(config: Config): ChatModel {
  const { provider, name, baseUrl, apiKey } = chatEndpoint(config);
  const { model } = config;
  const policy = { timeoutMs: model.timeoutMs, retries: model.httpRetries, backoffMs: model.backoffMs };
  return provider === "anthropic"
    ? new AnthropicChat({ baseUrl, apiKey, model: name, maxTokens: model.maxTokens, policy })
    : new OpenAIChat({ baseUrl, apiKey, model: name, policy });
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
export function chatEndpoint(config: Config): { provider: "qwen" | "openai" | "anthropic"; name: string; baseUrl: string; apiKey: string } {
  const { model, chat, providers } = config;
  const provider = chat.provider ?? (model.provider === "anthropic" || model.provider === "openai" ? model.provider : "qwen");
  // qwen and som planners talk to an OpenAI-compatible chat model already; UI-TARS and OpenCUA servers do not chat.
  const shared = provider === model.provider || (provider === "qwen" && model.provider === "som");
  const own = providers[provider];
  const planning = provider === "openai" ? undefined : shared ? model.name : own.name;
  const name = chat.name ?? planning ?? CHAT_DEFAULTS[provider].name;
  const baseUrl = chat.baseUrl ?? (shared ? model.baseUrl : (own.baseUrl ?? CHAT_DEFAULTS[provider].baseUrl));
  const apiKey = chat.apiKey ?? (shared ? model.apiKey : own.apiKey) ?? "";
  return { provider, name, baseUrl, apiKey };
}
