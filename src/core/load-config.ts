// The configuration as a process starts with it: the environment read into configSchema's fields,
// the command line's flags (and tests' overrides) over them, checked once; what cannot be read
// stops the start with every reason at once.
import path from "node:path";
import { PROVIDER_TABLE } from "../protocol/index.ts";
import { defaultChromeProfile } from "./cdp-endpoints.ts";
import { configSchema, PROVIDERS, type Config, type ConfigInput, type DeepPartial, type Provider } from "./config.ts";
import { secretsFromEnv } from "./secrets.ts";

type Env = Record<string, string | undefined>;

/** Reads the environment; `overrides` (command-line flags, tests) win over it. */
export function loadConfig(env: Env, overrides: DeepPartial<ConfigInput> = {}): Config {
  const fromEnv = {
    host: env.HOST,
    allowedHosts: env.ALLOWED_HOSTS,
    authToken: env.AUTH_TOKEN,
    port: env.PORT,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    s3: {
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      prefix: env.S3_PREFIX,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    },
    taskQueue: env.TASK_QUEUE,
    logLevel: env.LOG_LEVEL,
    locale: env.LOCALE,
    model: {
      provider: env.MODEL_PROVIDER,
      name: env.MODEL_NAME,
      baseUrl: env.MODEL_BASE_URL ?? providerEnv(env, "baseUrl"),
      apiKey: env.MODEL_API_KEY ?? providerEnv(env, "key"),
      maxTokens: env.MODEL_MAX_TOKENS,
      fallback: env.MODEL_FALLBACK,
      uitarsVersion: env.UITARS_VERSION,
      coordinates: env.MODEL_COORDINATES,
      grid: env.MODEL_GRID,
      dialect: env.MODEL_DIALECT,
      jsonMode: env.MODEL_JSON_MODE,
      timeoutMs: env.MODEL_TIMEOUT_MS,
      httpRetries: env.MODEL_HTTP_RETRIES,
      backoffMs: env.MODEL_BACKOFF_MS,
      imageMaxWidth: env.MODEL_IMAGE_MAX_WIDTH,
      imageMaxHeight: env.MODEL_IMAGE_MAX_HEIGHT,
      attachmentsKb: env.MODEL_ATTACHMENTS_KB,
      verifyClicks: env.MODEL_VERIFY_CLICKS,
    },
    providers: Object.fromEntries(
      PROVIDERS.map((p) => {
        const { settings } = PROVIDER_TABLE[p];
        return [p, { name: env[settings.model], baseUrl: env[settings.baseUrl], apiKey: env[settings.key] }];
      }),
    ),
    agent: {
      mode: env.AGENT_MODE,
      vision: env.AGENT_VISION,
      maxSteps: env.AGENT_MAX_STEPS,
      viewTokens: env.PAGE_VIEW_TOKENS,
      toolTimeoutMs: env.TOOL_TIMEOUT_MS,
      searchApiKey: env.BRAVE_API_KEY,
      searchBaseUrl: env.BRAVE_BASE_URL,
    },
    chat: {
      provider: env.CHAT_PROVIDER,
      name: env.CHAT_MODEL,
      baseUrl: env.CHAT_BASE_URL,
      apiKey: env.CHAT_API_KEY,
      taskMaxSteps: env.CHAT_TASK_MAX_STEPS,
    },
    effect: {
      pixelThreshold: env.EFFECT_PIXEL_THRESHOLD,
      changeRatio: env.EFFECT_CHANGE_RATIO,
      clickRetries: env.EFFECT_CLICK_RETRIES,
    },
    verification: { clicks: env.VERIFY_CLICKS, method: env.VERIFY_METHOD },
    limits: { maxSteps: env.MAX_STEPS, maxDurationMs: env.MAX_DURATION_MS, maxConcurrentTasks: env.MAX_CONCURRENT_TASKS, ratePerSecond: env.RATE_LIMIT, mcpSessionIdleMs: env.MCP_SESSION_IDLE_MS },
    browser: {
      chromePath: env.CHROME_PATH,
      headless: env.HEADLESS,
      width: env.SCREEN_WIDTH,
      height: env.SCREEN_HEIGHT,
      deviceScaleFactor: env.SCREEN_SCALE,
      liveFps: env.LIVE_FPS,
      cdpUrl: env.CDP_URL,
      cdpTargetId: env.CDP_TARGET_ID,
      cdpAllowedUrls: env.CDP_ALLOWED_URLS,
      attachChrome: env.ATTACH_CHROME,
      chromeProfileDir: env.CHROME_PROFILE_DIR ?? defaultChromeProfile(process.platform, env),
      cdpUrls: env.BROWSER_CDP_URLS,
      cdpCommand: env.BROWSER_CDP_COMMAND,
      cdpCommandTimeoutMs: env.BROWSER_CDP_COMMAND_TIMEOUT_MS,
      leaseWaitMs: env.BROWSER_LEASE_WAIT_MS,
      fenceAddress: env.BROWSER_FENCE_ADDRESS,
    },
    downloads: { maxBytes: env.DOWNLOAD_MAX_BYTES },
    computer: env.COMPUTER,
    desktop: { display: env.DESKTOP_DISPLAY, windowManager: env.DESKTOP_WM, apps: env.DESKTOP_APPS, minIntervalMs: env.DESKTOP_MIN_INTERVAL_MS },
    extension: { ackTimeoutMs: env.EXTENSION_ACK_TIMEOUT_MS, execTimeoutMs: env.EXTENSION_EXEC_TIMEOUT_MS },
    som: { maxElements: env.SOM_MAX_ELEMENTS, ocrBudgetMs: env.SOM_OCR_BUDGET_MS, omniparserUrl: env.OMNIPARSER_URL, omniparserTimeoutMs: env.OMNIPARSER_TIMEOUT_MS },
    approvals: env.APPROVAL_POLICY,
    secrets: env.SECRETS_FILE,
    prices: env.MODEL_PRICES_FILE,
    evaluation: { judgeModel: env.EVAL_JUDGE_MODEL },
    network: { allowedOrigins: env.ALLOWED_ORIGINS, blockedDomains: env.BLOCKED_DOMAINS, allowedDomains: env.ALLOWED_DOMAINS, sensitiveDomains: env.SENSITIVE_DOMAINS },
  };
  const merged = merge(dropUndefined(fromEnv), dropUndefined(overrides));
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${issues}`);
  }
  if (parsed.data.taskQueue === "postgres" && !parsed.data.databaseUrl) {
    throw new Error("Invalid configuration: TASK_QUEUE=postgres queues tasks on the Postgres server of DATABASE_URL; set DATABASE_URL too.");
  }
  if (parsed.data.browser.attachChrome && parsed.data.browser.cdpUrl) {
    throw new Error("Invalid configuration: CDP_URL and ATTACH_CHROME (--attach-chrome) each name the browser to drive; set only one of them.");
  }
  const pool = poolConflict(parsed.data.browser);
  if (pool) throw new Error(`Invalid configuration: ${pool}`);
  return { ...parsed.data, dataDir: path.resolve(parsed.data.dataDir), secrets: { ...parsed.data.secrets, ...secretsFromEnv(env) } };
}

/** Why the browsers to lease cannot be read as set: each setting names where tasks' browsers come from. */
function poolConflict(browser: Config["browser"]): string | null {
  const pooled = browser.cdpUrls.length > 0 ? "BROWSER_CDP_URLS" : browser.cdpCommand ? "BROWSER_CDP_COMMAND" : null;
  if (!pooled) return null;
  if (browser.cdpUrls.length > 0 && browser.cdpCommand) return "BROWSER_CDP_URLS and BROWSER_CDP_COMMAND each give the browsers tasks lease; set only one of them.";
  if (browser.cdpUrl || browser.attachChrome) return `${pooled} gives each task a browser of its own, CDP_URL and ATTACH_CHROME one browser for every task; set only one of them.`;
  return null;
}

/** `ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`, `DASHSCOPE_API_KEY`…: the chosen provider's own variables. */
function providerEnv(env: Env, setting: "key" | "baseUrl"): string | undefined {
  const provider = env.MODEL_PROVIDER ?? "qwen";
  if (!(PROVIDERS as readonly string[]).includes(provider)) return undefined;
  return env[PROVIDER_TABLE[provider as Provider].settings[setting]];
}

function dropUndefined(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const cleaned = dropUndefined(v);
    if (cleaned !== undefined && !(typeof cleaned === "object" && cleaned && !Array.isArray(cleaned) && Object.keys(cleaned).length === 0)) {
      out[k] = cleaned;
    }
  }
  return out;
}

function merge(base: unknown, over: unknown): unknown {
  if (typeof base !== "object" || base === null || typeof over !== "object" || over === null) {
    return over ?? base;
  }
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) out[k] = merge(out[k], v);
  return out;
}
