// The one table of model providers: each one's name, its wire protocol, where it answers by
// default, the settings that carry its key, address and model, and what each of its models gets — a tool version or answer format, a coordinate grid, an image size.
// Configuration, readiness, the adapters and the README's model table all read it; adding a
// family is a row here and its adapter folder (the compiler then asks models/index.ts for its
// constructor). Data only: the grids' arithmetic is perception/grids.ts.

/** The coordinate conventions a model may write points in (perception/grids.ts); MODEL_GRID picks one over this table. */
export const GRIDS = ["pixels", "norm999", "norm1000", "relative", "smart_resize"] as const;
export type GridName = (typeof GRIDS)[number];

/** The answer formats an OpenAI-compatible model may speak under `MODEL_PROVIDER=qwen`: our JSON, Qwen3-VL's `computer_use` calls, GLM-4.5V's `action(param='...')`. */
export const DIALECTS = ["json", "qwen3-vl", "glm-4.5v"] as const;
export type Dialect = (typeof DIALECTS)[number];

/**
 * The size a screenshot is sent at: within MODEL_IMAGE_MAX_WIDTH × MODEL_IMAGE_MAX_HEIGHT
 * (`settings`); into the XGA/WXGA/FWXGA display nearest its aspect (`recommended_displays`, what
 * Anthropic recommends to models reading up to 1568 px); or within a long edge and a pixel count.
 */
export type ImageLimit = { fit: "settings" } | { fit: "recommended_displays" } | { fit: "within"; longEdge: number; pixels: number };

/** How requests are made: Anthropic's Messages, OpenAI's Responses, OpenAI-compatible Chat Completions, Gemini's generateContent. */
export type Wire = "anthropic-messages" | "openai-responses" | "chat-completions" | "gemini";

/**
 * What a model gets. `tool` is the protocol's own version of the computer tool where it has
 * several: Anthropic's tool versions, Gemini's action sets (`2025` for click_at and its kin,
 * `2026` for click/type/hotkey with a desktop environment).
 */
export interface ModelFacts {
  /** The names the row covers, matched lower-cased after any `vendor/` prefix, with `-` for a `.` between digits. */
  names: RegExp;
  /** Today's names of the row, as the README lists them. */
  examples: readonly string[];
  tool?: string;
  dialect?: Dialect;
  grid: GridName;
  image: ImageLimit;
}

export interface ProviderFacts {
  wire: Wire;
  /** The model and endpoint when the settings name none. */
  model: string;
  baseUrl: string;
  /** The environment variables of its own key, endpoint and model (MODEL_* override them for the chosen provider). */
  settings: { key: string; baseUrl: string; model: string };
  /** The chat model on the same account, for the chat assistant, when this protocol chats (null: it does not). */
  chat: string | null;
  /** First match wins; the last row covers every other name. */
  models: readonly ModelFacts[];
}

const ANY = /./;
const SETTINGS: ImageLimit = { fit: "settings" };

export const PROVIDER_TABLE = {
  qwen: {
    wire: "chat-completions",
    model: "qwen2.5-vl-72b-instruct",
    baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
    settings: { key: "DASHSCOPE_API_KEY", baseUrl: "DASHSCOPE_BASE_URL", model: "QWEN_MODEL" },
    chat: "qwen-plus",
    models: [
      // Qwen3-VL answers in its computer_use calls on a 0–1000 grid (Qwen3-VL cookbooks, DashScope's GUI prompt).
      { names: /qwen3[-_]?vl/, examples: ["qwen3-vl-plus", "qwen3-vl-235b-a22b-instruct", "Qwen/Qwen3-VL-8B-Instruct"], dialect: "qwen3-vl", grid: "norm1000", image: SETTINGS },
      // GLM-4.5V answers in its published desktop action space, in thousandths (zai-org/GLM-V).
      { names: /glm-4-5v/, examples: ["glm-4.5v", "zai-org/GLM-4.5V"], dialect: "glm-4.5v", grid: "norm999", image: SETTINGS },
      // Qwen2.5-VL names absolute pixels of the image as its processor resized it.
      { names: /qwen2-5[-_]?vl/, examples: ["qwen2.5-vl-72b-instruct", "qwen2.5-vl-7b-instruct"], dialect: "json", grid: "smart_resize", image: SETTINGS },
      { names: ANY, examples: ["any vision model that answers PROTOCOL.md's JSON"], dialect: "json", grid: "pixels", image: SETTINGS },
    ],
  },
  anthropic: {
    wire: "anthropic-messages",
    model: "claude-sonnet-5",
    baseUrl: "https://api.anthropic.com",
    settings: { key: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL", model: "ANTHROPIC_MODEL" },
    chat: "claude-sonnet-5",
    // Anthropic's computer use tool page (the 2025 versions and their models), the SDKs'
    // computer_toolset_20260801 types (one nameless tools entry with per-member configs, no beta
    // header) and the models' pages: Claude 5 and Opus 4.8 take the toolset and refuse the older
    // versions and a forced tool_choice (never sent); from Opus 4.7 on screenshots may be up to
    // 2576 px and ~3.75 MP, answered in that image's pixels one to one.
    models: [
      { names: /(opus|sonnet|haiku|fable|mythos)-5\b|opus-4-8/, examples: ["claude-sonnet-5", "claude-opus-5-5", "claude-fable-5-1", "claude-opus-4-8"], tool: "computer_toolset_20260801", grid: "pixels", image: { fit: "within", longEdge: 2576, pixels: 3_750_000 } },
      { names: /opus-4-7/, examples: ["claude-opus-4-7"], tool: "computer_20251124", grid: "pixels", image: { fit: "within", longEdge: 2576, pixels: 3_750_000 } },
      { names: /opus-4-[56]|sonnet-4-6/, examples: ["claude-sonnet-4-6", "claude-opus-4-6", "claude-opus-4-5"], tool: "computer_20251124", grid: "pixels", image: { fit: "recommended_displays" } },
      // Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4, Opus 4, Sonnet 3.7, and names we do not know.
      { names: ANY, examples: ["claude-sonnet-4-5", "claude-haiku-4-5"], tool: "computer_20250124", grid: "pixels", image: { fit: "recommended_displays" } },
    ],
  },
  openai: {
    wire: "openai-responses",
    model: "gpt-5.4",
    baseUrl: "https://api.openai.com/v1",
    settings: { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL", model: "OPENAI_MODEL" },
    chat: "gpt-4.1",
    // The Responses API's GA `computer` tool batches actions; the preview model takes `computer_use_preview` with a display size.
    models: [
      { names: /^computer-use-preview/, examples: ["computer-use-preview"], tool: "computer_use_preview", grid: "pixels", image: SETTINGS },
      { names: ANY, examples: ["gpt-5.4", "gpt-5.5"], tool: "computer", grid: "pixels", image: SETTINGS },
    ],
  },
  gemini: {
    wire: "gemini",
    model: "gemini-3.5-flash",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    settings: { key: "GEMINI_API_KEY", baseUrl: "GEMINI_BASE_URL", model: "GEMINI_MODEL" },
    chat: "gemini-3.5-flash",
    // Google's computer use page: Gemini 3.5 Flash has its own function names and a desktop
    // environment; Gemini 3 Flash and the 2.5 computer-use model the click_at set, browser only.
    // Both name points on a 0–999 grid over whatever image is sent.
    models: [
      { names: /gemini-(3-[5-9]|[4-9])/, examples: ["gemini-3.5-flash"], tool: "2026", grid: "norm999", image: SETTINGS },
      { names: ANY, examples: ["gemini-3-flash-preview", "gemini-2.5-computer-use-preview-10-2025"], tool: "2025", grid: "norm999", image: SETTINGS },
    ],
  },
  uitars: {
    wire: "chat-completions",
    model: "ui-tars-1.5-7b",
    baseUrl: "http://127.0.0.1:8001/v1",
    settings: { key: "UITARS_API_KEY", baseUrl: "UITARS_BASE_URL", model: "UITARS_MODEL" },
    chat: null,
    // The grid follows UITARS_VERSION: 1.5 names pixels of its smart-resized image, 1.0 and Doubao 0–1000.
    models: [{ names: ANY, examples: ["ui-tars-1.5-7b", "doubao-1.5-ui-tars"], grid: "smart_resize", image: SETTINGS }],
  },
  opencua: {
    wire: "chat-completions",
    model: "OpenCUA-7B",
    baseUrl: "http://127.0.0.1:8001/v1",
    settings: { key: "OPENCUA_API_KEY", baseUrl: "OPENCUA_BASE_URL", model: "OPENCUA_MODEL" },
    chat: null,
    // MODEL_COORDINATES says how its pyautogui calls name points; `auto` reads 0–1 as relative, larger as pixels.
    models: [{ names: ANY, examples: ["OpenCUA-7B", "OpenCUA-32B"], grid: "relative", image: SETTINGS }],
  },
  som: {
    wire: "chat-completions",
    model: "qwen2.5-vl-72b-instruct",
    baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
    settings: { key: "SOM_API_KEY", baseUrl: "SOM_BASE_URL", model: "SOM_MODEL" },
    chat: null,
    // The model names numbered marks, not points.
    models: [{ names: ANY, examples: ["any OpenAI-compatible vision model"], grid: "pixels", image: SETTINGS }],
  },
} as const satisfies Record<string, ProviderFacts>;

export type ModelProvider = keyof typeof PROVIDER_TABLE;

/** The providers' names, in the table's order (MODEL_PROVIDER, MODEL_FALLBACK and a task's `model.provider` accept these). */
export const MODEL_PROVIDERS = Object.keys(PROVIDER_TABLE) as [ModelProvider, ...ModelProvider[]];

/** What the provider's model of this name gets: the first row that covers the name. */
export function modelFacts(provider: ModelProvider, name: string): ModelFacts {
  const normalized = name.toLowerCase().replace(/^.*\//, "").replace(/(\d)\.(\d)/g, "$1-$2");
  const rows: readonly ModelFacts[] = PROVIDER_TABLE[provider].models;
  return rows.find((row) => row.names.test(normalized)) ?? rows[rows.length - 1]!;
}
