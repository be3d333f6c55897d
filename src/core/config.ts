// The one validated configuration object, read once at start from the environment and the
// command line (load-config.ts), then passed down (STYLE habit 9). Nothing else reads process.env.
import { domainToASCII } from "node:url";
import { z } from "zod";
import { approvalPolicySchema } from "./approval-policy.ts";
import { priceFileSchema } from "./price-file.ts";
import { secretsFileSchema } from "./secrets.ts";
import { AGENT_MODES, COMPUTERS, DIALECTS, GRIDS, MODEL_PROVIDERS, PROVIDER_TABLE, type ModelProvider } from "../protocol/index.ts";

export { DIALECTS, GRIDS, type Dialect, type GridName } from "../protocol/index.ts";
export const PROVIDERS = MODEL_PROVIDERS;
export type Provider = ModelProvider;

/** Each provider's model and endpoint when the settings name none (protocol/providers.ts). */
export function providerDefaults(provider: Provider): { name: string; baseUrl: string } {
  return { name: PROVIDER_TABLE[provider].model, baseUrl: PROVIDER_TABLE[provider].baseUrl };
}

const providerSettings = z
  .object({ name: z.string().optional(), baseUrl: z.string().url().optional(), apiKey: z.string().default("") })
  .prefault({});

const bool = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false", "yes", "no"])])
  .transform((v) => v === true || v === "1" || v === "true" || v === "yes");
const int = z.coerce.number().int();

/**
 * A comma-separated list of domains, each read as the host name it means, in its ASCII form:
 * `https://*.Docs.example:443/path` is `docs.example`, `bücher.example` is `xn--bcher-kva.example`.
 */
function domainList(defaults: string[]) {
  return z
    .preprocess((v) => (typeof v === "string" ? v.split(",") : v), z.array(z.string()))
    .transform((list) => list.map(domainOf).filter((d) => d !== ""))
    .default(defaults);
}

function domainOf(entry: string): string {
  const host = entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/^\*?\./, "")
    .replace(/\.$/, "");
  return domainToASCII(host) || host;
}

/** Set-of-Mark from pixels, for computers opened without a configuration (tests, benchmarks). */
export const SOM_DEFAULTS = { maxElements: 40, ocrBudgetMs: 300, omniparserTimeoutMs: 30_000 } as const;

/** VERIFY_CLICKS (and MODEL_VERIFY_CLICKS): which clicks get the pointer check. */
export const VERIFY_CLICKS = ["auto", "requested", "always", "never"] as const;

/** Where money moves or an identity signs in: SENSITIVE_DOMAINS replaces this list. */
export const SENSITIVE_DOMAINS = ["paypal.com", "stripe.com", "accounts.google.com", "login.microsoftonline.com", "login.live.com", "appleid.apple.com", "signin.aws.amazon.com"] as const;

export const configSchema = z.object({
  host: z.string().default("127.0.0.1"),
  port: int.min(0).max(65535).default(8000),
  /**
   * Host names besides localhost and IP addresses the server answers to: a reverse proxy's domain
   * (`agent.example.com`). Any other Host is refused (DNS rebinding); with names here, every request
   * needs the sign-in token, as off loopback.
   */
  allowedHosts: z
    .preprocess(
      (v) => (typeof v === "string" ? v.split(",").map((p) => p.trim().toLowerCase()).filter(Boolean) : v),
      z.array(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "ALLOWED_HOSTS lists host names only, without a scheme, port or path: agent.example.com,agent.internal")),
    )
    .default([]),
  /** A token every request must carry (a cookie set by /login, or a bearer header); required off loopback and with ALLOWED_HOSTS. */
  authToken: z.string().min(16, "AUTH_TOKEN must have at least 16 characters").optional(),
  dataDir: z.string().default("./data"),
  /** A Postgres server to keep the chats in instead of the SQLite file under the data dir (frames and files go by S3_BUCKET). */
  databaseUrl: z.string().regex(/^postgres(ql)?:\/\/\S+$/, "DATABASE_URL must be a postgres:// address: postgres://user:password@host:5432/database").optional(),
  /**
   * An S3-compatible bucket (AWS S3, MinIO, R2) for frames, attachments, received files and
   * artifacts; without S3_BUCKET they stay under the data dir. No keys: the SDK's own chain
   * (AWS_PROFILE, instance roles) finds them.
   */
  s3: z
    .object({
      bucket: z.string().min(1).optional(),
      /** The server of a bucket not on AWS: `http://127.0.0.1:9000` (MinIO), `https://{account}.r2.cloudflarestorage.com`. */
      endpoint: z.string().regex(/^https?:\/\/[^\s/]+/, "S3_ENDPOINT must be an http(s) URL: http://127.0.0.1:9000").optional(),
      region: z.string().min(1).default("us-east-1"),
      accessKeyId: z.string().min(1).optional(),
      secretAccessKey: z.string().min(1).optional(),
      /** A folder in the bucket every key goes under (`easyagentcu/prod`); slashes at its ends are dropped. */
      prefix: z.string().default("").transform((p) => p.replace(/^\/+|\/+$/g, "")),
      /** `bucket` in the path rather than the host name: most servers other than AWS's want it. */
      forcePathStyle: bool.default(false),
    })
    .prefault({})
    .superRefine((s3, ctx) => {
      if (!s3.bucket && (s3.endpoint || s3.accessKeyId || s3.secretAccessKey || s3.prefix)) {
        ctx.addIssue({ code: "custom", message: "S3_ENDPOINT, S3_PREFIX and the S3 keys need S3_BUCKET, the bucket to keep files in" });
      }
      if (Boolean(s3.accessKeyId) !== Boolean(s3.secretAccessKey)) {
        ctx.addIssue({ code: "custom", message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK's own credentials" });
      }
    }),
  /** Where `serve` runs its tasks: in its own process, or queued on DATABASE_URL's Postgres for `easyagentcu worker` processes to take. */
  taskQueue: z.enum(["process", "postgres"]).default("process"),
  /** Language of texts the agent writes itself: the pointer label, its own answers. */
  locale: z.enum(["en", "zh"]).default("en"),
  logLevel: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  model: z.object({
    provider: z.enum(PROVIDERS).default("qwen"),
    /** Each provider has its own default model and endpoint. */
    name: z.string().optional(),
    baseUrl: z.string().url().optional(),
    apiKey: z.string().default(""),
    /** Providers tried in order when the one before fails (HTTP 5xx/429 or a timeout after retries, or output still invalid). */
    fallback: z
      .preprocess((v) => (typeof v === "string" ? v.split(",").map((p) => p.trim()).filter(Boolean) : v), z.array(z.enum(PROVIDERS)))
      .default([]),
    /** How UI-TARS writes coordinates: 1.0 in 0–1000, 1.5 and later in its resized image's pixels. */
    uitarsVersion: z.enum(["1.0", "1.5", "doubao-1.5-15B", "doubao-1.5-20B"]).default("1.5"),
    /** How coordinate models (OpenCUA) write points: `auto` reads 0–1 as relative, larger as pixels. */
    coordinates: z.enum(["auto", "relative", "relative1000", "absolute"]).default("auto"),
    /** The coordinate convention of the model's points, over the one its name implies (models/dialects.ts). */
    grid: z.enum(GRIDS, { error: `MODEL_GRID must be one of ${GRIDS.join(", ")}` }).optional(),
    /** The answer format under MODEL_PROVIDER=qwen, over the one the model's name implies. */
    dialect: z.enum(DIALECTS, { error: `MODEL_DIALECT must be one of ${DIALECTS.join(", ")}` }).optional(),
    /** The most a single model reply may hold (Anthropic's `max_tokens`). */
    maxTokens: int.min(256).max(64_000).default(4096),
    /** Send `response_format: {type: "json_object"}` (PROTOCOL.md); off for servers that reject it. */
    jsonMode: bool.default(true),
    timeoutMs: int.positive().default(90_000),
    /** Further attempts after an HTTP 429/5xx, a timeout or an unreachable endpoint. */
    httpRetries: int.min(0).max(10).default(3),
    /** The first backoff between attempts (doubling); a `retry-after` header wins. */
    backoffMs: int.min(0).max(60_000).default(1000),
    /** How many times an invalid answer is sent back with the validation error. */
    repairRetries: int.min(0).max(5).default(2),
    /** How many earlier steps the planner sees as history lines. */
    historySteps: int.min(0).max(100).default(12),
    /** Overrides `verification.clicks` for this model's clicks. */
    verifyClicks: z.enum(VERIFY_CLICKS).optional(),
    /** The screenshot is scaled down to fit this size before the model sees it (aspect kept). */
    imageMaxWidth: int.min(64).max(8192).default(1280),
    imageMaxHeight: int.min(64).max(8192).default(1280),
    /**
     * The most of the person's attached files a model is sent with a task, in KB, counted as sent:
     * an image's bytes, a text's (a PDF's extracted text) UTF-8 bytes. What does not fit is named.
     */
    attachmentsKb: int.min(0).max(100 * 1024).default(4096),
  })
    .prefault({})
    .transform((model) => ({
      ...model,
      name: model.name ?? providerDefaults(model.provider).name,
      baseUrl: model.baseUrl ?? providerDefaults(model.provider).baseUrl,
    })),
  /** Each provider's own model, endpoint and key, for fallbacks and per-task choices. */
  providers: z.object(Object.fromEntries(PROVIDERS.map((p) => [p, providerSettings])) as Record<Provider, typeof providerSettings>).prefault({}),
  /** How tasks are driven: a planner's screen actions, or the browser tool agent (seed 001) over the chat model. */
  agent: z
    .object({
      mode: z.enum(AGENT_MODES).default("actions"),
      /** Whether the chat model takes images; without, the tool agent runs in `dom` mode and takes no screenshots. */
      vision: bool.default(true),
      /** The tool agent's step cap (one tool call a step), seed 001 §7. */
      maxSteps: int.positive().default(15),
      /** The page view's budget (ariaTree), in tokens of OpenAI's o200k encoding; what does not fit comes in further parts. */
      viewTokens: int.min(200).default(3_000),
      /**
       * How long one tool call may take, the person's decisions not counted; past it, what the call
       * was doing stops where it acts. By default a minute, or the model's timeout and 30 s more.
       */
      toolTimeoutMs: int.min(1_000).optional(),
      /** Brave Search, for the `search` tool; without a key the tool is not offered. */
      searchApiKey: z.string().default(""),
      searchBaseUrl: z.string().url().default("https://api.search.brave.com/res/v1"),
    })
    .prefault({}),
  /** The chat assistant (master agent): answers messages and starts computer tasks. */
  chat: z
    .object({
      /** The protocol it speaks: OpenAI-compatible Chat Completions (`qwen`, `openai`), Anthropic Messages or Gemini generateContent. */
      provider: z.enum(["qwen", "openai", "anthropic", "gemini"]).optional(),
      name: z.string().optional(),
      baseUrl: z.string().url().optional(),
      apiKey: z.string().optional(),
      /** The step cap of a task it starts unless the person asks otherwise (at most `limits.maxSteps`); by default `limits.maxSteps`. */
      taskMaxSteps: int.positive().optional(),
      /** How many earlier messages of the chat it reads. */
      historyMessages: int.min(0).max(200).default(20),
      /** How many computer tasks one answer may start. */
      maxTasks: int.min(1).max(10).default(3),
    })
    .prefault({}),
  /** Effect check after each action (seed 002 §2.5). */
  effect: z
    .object({
      /** A pixel changed when its gray level moved by more than this (0–255). */
      pixelThreshold: int.min(0).max(255).default(15),
      /** The screen changed when more than this share of its pixels did. */
      changeRatio: z.coerce.number().min(0).max(1).default(0.02),
      /** A click without effect is repeated this many times, each a few pixels off. */
      clickRetries: int.min(0).max(10).default(3),
      jitterPx: int.min(0).max(20).default(3),
    })
    .prefault({}),
  /** The cursor-checked click (seed 000 §4.1). */
  verification: z
    .object({
      /**
       * `auto`: every click where the hit test can check it (a browser's page), elsewhere (a
       * desktop) the clicks whose action asks for it; `requested`: only those; `always`: every
       * click; `never`.
       */
      clicks: z.enum(VERIFY_CLICKS).default("auto"),
      /** `auto`: hit-test where the computer can, else ask the model; or only one of the two. */
      method: z.enum(["auto", "model", "hit_test"]).default("auto"),
      maxAttempts: int.min(1).max(10).default(4),
      /** A correction this small (image pixels) is clicked without another check. */
      tolerancePx: int.min(0).max(100).default(14),
    })
    .prefault({}),
  limits: z.object({
    maxSteps: int.positive().default(80),
    maxDurationMs: int.positive().default(8 * 60_000),
    /** Tasks that run at once across sessions; later ones wait their turn, `queued`. */
    maxConcurrentTasks: int.positive().default(4),
    /** API requests a second from one client address, with bursts of 15 seconds' worth (server/rate-limit.ts); 0 turns it off. */
    ratePerSecond: z.coerce.number().min(0).default(20),
    /** An MCP client's HTTP session with nothing under way and not heard from this long is closed, and its computers with it. */
    mcpSessionIdleMs: int.positive().default(30 * 60_000),
  }).prefault({}),
  browser: z.object({
    chromePath: z.string().optional(),
    headless: bool.default(true),
    width: int.min(200).max(3840).default(1280),
    height: int.min(200).max(2160).default(800),
    /** devicePixelRatio of the browser: screenshots are taken in device pixels. */
    deviceScaleFactor: z.coerce.number().min(0.5).max(4).default(1),
    /** JPEG quality of step screenshots. */
    jpegQuality: int.min(10).max(100).default(80),
    /** At most this many `screen.live` frames a second per task. */
    liveFps: z.coerce.number().min(0).max(30).default(10),
    navigationTimeoutMs: int.positive().default(30_000),
    /** Drive a running browser over CDP instead of launching one (a person's Chrome, an Electron app, a remote browser). */
    cdpUrl: z.string().url().optional(),
    /** Which page of it: a DevTools target id; the first page when absent. */
    cdpTargetId: z.string().optional(),
    /**
     * Drive the Chrome the person is already running, once they have turned on its remote debugging
     * (chrome://inspect/#remote-debugging): it is found by its profile's DevToolsActivePort.
     */
    attachChrome: bool.default(false),
    /** That Chrome's user data folder: CHROME_PROFILE_DIR, else where Chrome keeps it on this system (loadConfig fills it in). */
    chromeProfileDir: z.string().min(1).optional(),
    /** Further CDP endpoints a request's `cdp_url` may name; no other is reached. */
    cdpAllowedUrls: z
      .preprocess((v) => (typeof v === "string" ? v.split(",").map((p) => p.trim()).filter(Boolean) : v), z.array(z.string().url()))
      .default([]),
    /**
     * Browsers that run elsewhere, to drive in place of a Chromium of our own: one is leased to
     * each task for its life (computers/browser/browser-pool.ts); processes on one Postgres share them.
     */
    cdpUrls: z
      .preprocess(
        (v) => (typeof v === "string" ? v.split(",").map((p) => p.trim()).filter(Boolean) : v),
        z.array(z.string().regex(/^(https?|wss?):\/\/[^\s/]+/, "BROWSER_CDP_URLS lists http(s) or ws(s) DevTools addresses, comma-separated: http://10.0.0.7:9222,ws://10.0.0.8:9222/devtools/browser/ID")),
      )
      .default([]),
    /** Run through `sh -c` for each task: starts a browser session and prints its DevTools address as its first line (browser services). */
    cdpCommand: z.string().trim().min(1).optional(),
    /** How long BROWSER_CDP_COMMAND may take to print that address. */
    cdpCommandTimeoutMs: int.min(1_000).max(600_000).default(60_000),
    /**
     * An address of this server's (`10.0.0.5:8899`) where leased browsers on other machines reach
     * the network fence, which listens there too and asks them for this process's credentials.
     */
    fenceAddress: z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):\d{1,5}$/, "BROWSER_FENCE_ADDRESS is a host and port of this server that leased browsers reach: 10.0.0.5:8899").optional(),
    /** How long a task waits for a browser of BROWSER_CDP_URLS to be free before it fails NO_BROWSER_FREE. */
    leaseWaitMs: int.min(0).max(3_600_000).default(60_000),
  }).prefault({}),
  /** Files a task receives (its browser's downloads, new files in its desktop's downloads folder). */
  downloads: z.object({
    /** A file larger than this is cancelled as it arrives and not kept; the model and the person are told. */
    maxBytes: int.positive().default(100 * 1024 * 1024),
  }).prefault({}),
  /** What tasks drive: a Chromium the server launches (or attaches to), a whole desktop, or the person's Chrome through the extension. */
  computer: z.enum(COMPUTERS).default("browser"),
  desktop: z.object({
    /** An X display to drive (`:0`) instead of a virtual desktop of the server's own. */
    display: z.string().regex(/^[\w.-]*:\d+(\.\d+)?$/, "must be an X display name such as :0").optional(),
    /** The virtual desktop's window manager. */
    windowManager: z.string().min(1).default("openbox"),
    /** At least this long between two inputs; 0 for none. */
    minIntervalMs: int.min(0).max(5_000).default(200),
    /** Programs started on the virtual desktop with it, each a command and its arguments (`xterm -geometry 80x24+0+0`). */
    apps: z.preprocess((v) => (typeof v === "string" ? v.split(",").map((p) => p.trim()).filter(Boolean) : v), z.array(z.string().min(1))).default(["xterm"]),
  }).prefault({}),
  /** The person's Chrome (seed 004): how long an action of the extension's may take to be acked, then to finish. */
  extension: z.object({
    ackTimeoutMs: int.min(100).max(60_000).default(5_000),
    execTimeoutMs: int.min(1_000).max(600_000).default(30_000),
  }).prefault({}),
  /** Set-of-Mark from pixels (seed 002 §2.4): a desktop's elements, and the ones a web page's DOM cannot name. */
  som: z.object({
    /** At most this many elements are numbered from the pixels (seed 002's SOM_MAX_ELEMENTS). */
    maxElements: int.min(1).max(200).default(SOM_DEFAULTS.maxElements),
    /** How long OCR may take on one screen; text left unread is read on a later look. */
    ocrBudgetMs: int.min(0).max(10_000).default(SOM_DEFAULTS.ocrBudgetMs),
    /** A real OmniParser server (its `POST /parse/`) that replaces the built-in detector. */
    omniparserUrl: z.string().url().optional(),
    omniparserTimeoutMs: int.positive().default(SOM_DEFAULTS.omniparserTimeoutMs),
  }).prefault({}),
  /** allow, ask or deny for each class of action (core/approval-policy.ts): APPROVAL_POLICY, JSON inline or a file. */
  approvals: approvalPolicySchema.prefault({}),
  /** `%name%` → value, typed only where the computer types (core/secrets.ts): SECRETS_FILE, and SECRET_<NAME> variables. */
  secrets: secretsFileSchema.default({}),
  /** MODEL_PRICES_FILE: price rows that come before the shipped ones (models/prices.ts), first match wins. */
  prices: priceFileSchema.default([]),
  /** The evaluation harness (src/eval/). */
  evaluation: z.object({
    /** The model a suite's `judge` checks ask, as `provider:model` with a chat provider; without it those checks fail saying so. */
    judgeModel: z.string().regex(/^(qwen|openai|anthropic|gemini):.+$/, "EVAL_JUDGE_MODEL must be provider:model with a chat provider (qwen, openai, anthropic, gemini), e.g. anthropic:claude-sonnet-5").optional(),
  }).prefault({}),
  /** Where the agent's own browser may go (the network fence; see computers/browser/fence.ts). */
  network: z.object({
    /** Local or private origins the agent may open (`http://127.0.0.1:3000`, `localhost:*`); everything public is allowed anyway. */
    allowedOrigins: z.preprocess((v) => (typeof v === "string" ? v.split(",").map((p) => p.trim()).filter(Boolean) : v), z.array(z.string().min(1))).default([]),
    /** Domains the agent may never open, with their subdomains. */
    blockedDomains: domainList([]),
    /** When any: the only public domains the agent may open, with their subdomains. */
    allowedDomains: domainList([]),
    /** Sites where every action that changes something waits for the person (`sensitive_site`), with their subdomains. */
    sensitiveDomains: domainList([...SENSITIVE_DOMAINS]),
  }).prefault({}),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };
