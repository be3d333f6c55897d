// The words of the model's setup — the banner, the line under the composer and the settings
// panel — in English and Chinese, in the locale the rest of the UI picked.
import { locale } from "../i18n.ts";
import type { ModelProvider, ModelStatusReply, SettingSource } from "../protocol.ts";

type Problem = Extract<ModelStatusReply, { ready: false }>["problem"];

/** What the banner says of a problem (its headline, then what to do) and the line under the composer. */
interface ProblemWords {
  title: (endpoint: string) => string;
  how: string;
  composer: (endpoint: string) => string;
}

const en = {
  problems: {
    no_key: {
      title: () => "No model key yet.",
      how: "Set a key, or the address of a model on your own machine, in Model settings. No restart needed.",
      composer: () => "The agent has no model to ask yet: set a model key, or a local model's address.",
    },
    unreachable: {
      title: (endpoint: string) => `The model server at ${endpoint} does not answer.`,
      how: "Start it, or choose another one in Model settings.",
      composer: (endpoint: string) => `The agent cannot reach its model at ${endpoint}: start it, or choose another one.`,
    },
    key_refused: {
      title: (endpoint: string) => `The model server at ${endpoint} does not take the key.`,
      how: "Set the right key in Model settings.",
      composer: () => "The agent's model does not take its key: set the right one.",
    },
  } satisfies Record<Problem, ProblemWords>,
  openSettings: "Model settings",
  title: "Model settings",
  intro: "The model the agent asks. It is kept by the EasyAgentCU server on this computer; the key is never shown again.",
  close: "Close",
  provider: "Provider",
  providers: {
    qwen: "Qwen-VL / OpenAI-compatible",
    anthropic: "Anthropic Claude",
    openai: "OpenAI computer use",
    gemini: "Google Gemini",
    uitars: "UI-TARS (your own server)",
    opencua: "OpenCUA (your own server)",
    som: "Set-of-Mark (a vision model)",
  } satisfies Record<ModelProvider, string>,
  model: "Model",
  baseUrl: "Address",
  baseUrlHint: "For a model on your own machine (Ollama, vLLM, LM Studio), its address, such as http://127.0.0.1:11434/v1. It needs no key.",
  key: "API key",
  keySet: (last4: string | null) => (last4 ? `A key ending in ${last4} is set. Type a new one to replace it.` : "A key is set. Type a new one to replace it."),
  keyNone: "No key is set.",
  keyInEnv: "The server's environment has a key for this provider. Type one here to use another.",
  keyTyped: "It goes to the server only; afterwards just its last 4 characters are shown.",
  from: { app: "set here", env: "from the server's environment", default: "default" } satisfies Record<SettingSource, string>,
  test: "Test",
  testing: "Testing…",
  save: "Save",
  saving: "Saving…",
  cancel: "Cancel",
  works: "The model answers and takes the key: these settings can be used.",
  loadFailed: "The settings could not be loaded; try again.",
};

type Words = typeof en;

const zh: Words = {
  problems: {
    no_key: {
      title: () => "还没有模型密钥。",
      how: "请在“模型设置”中填写密钥，或本机模型的地址。无需重启。",
      composer: () => "智能体还没有可用的模型：请设置模型密钥，或本机模型的地址。",
    },
    unreachable: {
      title: (endpoint: string) => `模型服务 ${endpoint} 没有响应。`,
      how: "请启动它，或在“模型设置”中换一个。",
      composer: (endpoint: string) => `智能体连不上模型 ${endpoint}：请启动它，或换一个。`,
    },
    key_refused: {
      title: (endpoint: string) => `模型服务 ${endpoint} 不接受这个密钥。`,
      how: "请在“模型设置”中填写正确的密钥。",
      composer: () => "智能体的模型不接受它的密钥：请设置正确的密钥。",
    },
  },
  openSettings: "模型设置",
  title: "模型设置",
  intro: "智能体所用的模型。由本机的 EasyAgentCU 服务保存；密钥保存后不会再显示。",
  close: "关闭",
  provider: "提供方",
  providers: {
    qwen: "Qwen-VL / OpenAI 兼容服务",
    anthropic: "Anthropic Claude",
    openai: "OpenAI 计算机操作",
    gemini: "Google Gemini",
    uitars: "UI-TARS（自建服务）",
    opencua: "OpenCUA（自建服务）",
    som: "Set-of-Mark（视觉模型）",
  },
  model: "模型",
  baseUrl: "地址",
  baseUrlHint: "本机模型（Ollama、vLLM、LM Studio）请填写其地址，例如 http://127.0.0.1:11434/v1，无需密钥。",
  key: "API 密钥",
  keySet: (last4: string | null) => (last4 ? `已设置以 ${last4} 结尾的密钥。输入新密钥即可替换。` : "已设置密钥。输入新密钥即可替换。"),
  keyNone: "尚未设置密钥。",
  keyInEnv: "服务器环境变量中已有此提供方的密钥。在此输入可改用另一个。",
  keyTyped: "密钥只发送给服务器；之后只显示它的最后 4 个字符。",
  from: { app: "在此设置", env: "来自服务器环境变量", default: "默认" },
  test: "测试",
  testing: "正在测试…",
  save: "保存",
  saving: "正在保存…",
  cancel: "取消",
  works: "模型有响应，并接受了密钥：可以使用这些设置。",
  loadFailed: "无法加载设置，请重试。",
};

export const words: Words = locale === "zh" ? zh : en;
