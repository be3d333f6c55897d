// The words of the model's setup — the banner, the line under the composer and the settings
// panel — in English and Chinese, in the locale the rest of the UI picked.
import { locale } from "../i18n.ts";
import type { ModelProvider, SettingSource } from "../protocol.ts";

const en = {
  noKey: "No model key yet.",
  noKeyHow: "Set a key, or the address of a model on your own machine, in Model settings. No restart needed.",
  unreachable: (endpoint: string) => `The model server at ${endpoint} does not answer.`,
  unreachableHow: "Start it, or choose another one in Model settings.",
  composerNoKey: "The agent has no model to ask yet: set a model key, or a local model's address.",
  composerUnreachable: (endpoint: string) => `The agent cannot reach its model at ${endpoint}: start it, or choose another one.`,
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
  keyTyped: "It goes to the server only; afterwards just its last 4 characters are shown.",
  from: { app: "set here", env: "from the server's environment", default: "default" } satisfies Record<SettingSource, string>,
  test: "Test",
  testing: "Testing…",
  save: "Save",
  saving: "Saving…",
  cancel: "Cancel",
  works: "The model answers: these settings can be used.",
  loadFailed: "The settings could not be loaded; try again.",
};

type Words = typeof en;

const zh: Words = {
  noKey: "还没有模型密钥。",
  noKeyHow: "请在“模型设置”中填写密钥，或本机模型的地址。无需重启。",
  unreachable: (endpoint: string) => `模型服务 ${endpoint} 没有响应。`,
  unreachableHow: "请启动它，或在“模型设置”中换一个。",
  composerNoKey: "智能体还没有可用的模型：请设置模型密钥，或本机模型的地址。",
  composerUnreachable: (endpoint: string) => `智能体连不上模型 ${endpoint}：请启动它，或换一个。`,
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
  keyTyped: "密钥只发送给服务器；之后只显示它的最后 4 个字符。",
  from: { app: "在此设置", env: "来自服务器环境变量", default: "默认" },
  test: "测试",
  testing: "正在测试…",
  save: "保存",
  saving: "正在保存…",
  cancel: "取消",
  works: "模型有响应：可以使用这些设置。",
  loadFailed: "无法加载设置，请重试。",
};

export const words: Words = locale === "zh" ? zh : en;
