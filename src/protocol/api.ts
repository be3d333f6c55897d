// REST bodies and replies of seed 000 §7. The server validates bodies with these schemas, so a
// 400 names the field that is wrong; the UI imports the same types.
import { z } from "zod";
import { AGENT_MODES, COMPUTERS, attachmentSchema, chatMessageSchema, progressStepSchema, sessionSchema, taskFileSchema, taskSchema } from "./entities.ts";
import { MOUSE_BUTTONS } from "./actions.ts";
import { EXTENSION_ERROR_CODES } from "./extension.ts";
import { MODEL_PROVIDERS, type ModelProvider } from "./providers.ts";

export const idSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, "must contain only letters, digits, '_' and '-'");


/** A task's own choice of model, instead of the server's configured one. */
export const modelChoiceSchema = z.object({
  provider: z.enum(MODEL_PROVIDERS),
  name: z.string().min(1).max(200).optional(),
});
export type ModelChoice = z.infer<typeof modelChoiceSchema>;

export const sendBodySchema = z.object({
  session_id: idSchema,
  text: z.string().trim().min(1, "must not be empty").max(20_000),
  attachments: z.array(attachmentSchema).max(10).default([]),
  start_url: z
    .string()
    .url()
    .refine((u) => /^(https?:|about:blank$)/.test(u), "must be an http(s) URL")
    .optional(),
  model: modelChoiceSchema.optional(),
  /**
   * `auto`: the chat assistant answers, and starts a computer task when the message needs one;
   * `task`: the message is a computer task, started at once.
   */
  mode: z.enum(["auto", "task"]).default("auto"),
  /** How the task is driven; by default the configured AGENT_MODE. */
  agent_mode: z.enum(AGENT_MODES).optional(),
  /** What the task drives; by default the configured COMPUTER. */
  computer: z.enum(COMPUTERS).optional(),
  /** The extension to drive (its client id, from GET /api/extension/extension-list): implies computer "extension". */
  extension_client_id: z.string().min(8).max(100).optional(),
  /** Drive a running browser's page over CDP (`http://127.0.0.1:9222` or a `ws://` endpoint) instead of a new one. */
  cdp_url: z
    .string()
    .url()
    .refine((u) => /^(https?|wss?):/.test(u), "must be an http(s) or ws(s) URL")
    .optional(),
  /** Which page of that browser: its DevTools target id (from /json/list); the first page when absent. */
  cdp_target_id: z.string().min(1).max(200).optional(),
});
export type SendBody = z.input<typeof sendBodySchema>;

/** GET /api/health: the server is up, and what tasks drive unless a request says. */
export type HealthReply = { ok: true; computer: (typeof COMPUTERS)[number] };

/**
 * Whether the configured models can be asked at all (GET /api/model-status): a provider that needs
 * a key has one, each endpoint answers, and none refuses its key (HTTP 401). When not, `setting`
 * is the one setting to change.
 */
export type ModelStatusReply =
  | { ready: true }
  | { ready: false; problem: "no_key" | "unreachable" | "key_refused"; setting: string; endpoint: string; detail: string };
/**
 * PUT /api/settings/model saves the model a person sets in the app, over the environment's;
 * POST /api/settings/model/test asks the readiness check of GET /api/model-status about the same
 * body without saving it. The key goes to the server only: no reply carries it back.
 */
export const modelSettingsBodySchema = z.strictObject({
  provider: z.enum(MODEL_PROVIDERS),
  /** The model's name; empty: the one the environment names for this provider, else the provider's default. */
  model: z.string().trim().max(200).default(""),
  /** A local model server's address (`http://127.0.0.1:11434/v1` for Ollama); empty: as for `model`. */
  base_url: z
    .string()
    .trim()
    .max(2_000)
    .refine((u) => u === "" || (URL.canParse(u) && /^https?:\/\//i.test(u)), "must be an http(s) address such as http://127.0.0.1:11434/v1")
    .default(""),
  /** Absent: keep the key set before for this provider; empty: drop the key set here (the environment's applies again). */
  api_key: z.string().trim().max(1_000).optional(),
});
export type ModelSettingsBody = z.input<typeof modelSettingsBodySchema>;
export type ModelSettings = z.infer<typeof modelSettingsBodySchema>;

/** Where a setting's value comes from: set in the app, the server's environment (or command line), or the built-in default. */
export const SETTING_SOURCES = ["app", "env", "default"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/** GET and PUT /api/settings/model: the model in use; of its key only whether there is one and, when long, its last 4 characters. */
export type ModelSettingsReply = {
  provider: ModelProvider;
  model: string;
  base_url: string;
  key: { set: boolean; last4: string | null };
  from: { provider: SettingSource; model: SettingSource; base_url: SettingSource; key: SettingSource };
  /** Each provider's own model and address, shown when a field is left empty. */
  defaults: Record<ModelProvider, { model: string; base_url: string }>;
  /** The providers the server's environment has a key for (ANTHROPIC_API_KEY…), used when none is set here. */
  env_keys: ModelProvider[];
};

/** `task_id` is the started task's in `task` mode, null in `auto` mode (a task arrives as `task.started`). */
export const sendReplySchema = z.object({ session_id: z.string(), message_id: z.string(), task_id: z.string().nullable() });
export type SendReply = z.infer<typeof sendReplySchema>;

export const taskActionBodySchema = z.object({ task_id: idSchema });

/** POST /api/chat/continue: how many more steps the continued task may take (at most MAX_STEPS, checked by the server). */
export const continueBodySchema = taskActionBodySchema.extend({ extra_steps: z.number().int().min(1).optional() });

/** Stop a task, or the assistant's answer to a message (`message_id`: the person's message). */
export const stopBodySchema = z
  .object({ task_id: idSchema.optional(), message_id: idSchema.optional() })
  .refine((body) => (body.task_id === undefined) !== (body.message_id === undefined), "give either task_id or message_id");

export const approveBodySchema = z.object({ task_id: idSchema, approval_id: idSchema, approved: z.boolean() });

const framePoint = { x: z.number().int().min(0).max(10_000), y: z.number().int().min(0).max(10_000) };
/**
 * The person's own input on the live view while they have the screen (takeover, or a task
 * waiting for them to act): points are pixels of the live frame.
 */
export const personInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("click"), ...framePoint, button: z.enum(MOUSE_BUTTONS).default("left"), double: z.boolean().default(false) }),
  z.object({ kind: z.literal("scroll"), ...framePoint, delta_x: z.number().int().min(-5_000).max(5_000).default(0), delta_y: z.number().int().min(-5_000).max(5_000).default(0) }),
  z.object({ kind: z.literal("key"), keys: z.array(z.string().min(1).max(40)).min(1).max(5) }),
  z.object({ kind: z.literal("type"), text: z.string().min(1).max(2_000) }),
]);
export type PersonInput = z.infer<typeof personInputSchema>;
export type PersonInputBody = z.input<typeof personInputSchema>;
export const inputBodySchema = z.object({ task_id: idSchema, input: personInputSchema });

export const createSessionBodySchema = z.object({ title: z.string().max(200).optional() });
export const SESSION_TITLE_MAX = 120;
/** PATCH /api/sessions/:id: the person's own title, which a first message no longer replaces. */
export const renameSessionBodySchema = z.object({
  title: z.string().trim().min(1, "must not be empty").max(SESSION_TITLE_MAX, `must be at most ${SESSION_TITLE_MAX} characters`),
});

export type SessionsReply = { sessions: z.infer<typeof sessionSchema>[] };
export type MessagesReply = { messages: z.infer<typeof chatMessageSchema>[] };
export type TasksReply = { tasks: z.infer<typeof taskSchema>[] };
export type TaskReply = { task: z.infer<typeof taskSchema>; steps: z.infer<typeof progressStepSchema>[]; files: z.infer<typeof taskFileSchema>[] };

/**
 * GET /api/tasks/:id/artifacts/:artifact_id: a range of a long text the task saved (a page's reader
 * text over 256 KB), in characters; without `length`, to the end.
 */
/** `GET /api/tasks/:id/export?format=`: the trajectory as JSON (docs/trajectory.md), or a Playwright script of a browser task. */
export const EXPORT_FORMATS = ["json", "playwright"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportQuerySchema = z.object({ format: z.enum(EXPORT_FORMATS, { error: `format must be ${EXPORT_FORMATS.join(" or ")}` }).default("json") });

export const artifactRangeSchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  length: z.coerce.number().int().min(1).optional(),
});
export type ArtifactReply = { artifact_id: string; task_id: string; offset: number; length: number; total_chars: number; text: string };

/**
 * Requests that change state carry the per-install token in this header; the UI finds the token in
 * its page, in the meta element of this name.
 */
export const INSTALL_TOKEN_HEADER = "x-easyagentcu-token";
export const INSTALL_TOKEN_META = "easyagentcu-token";

export const ERROR_CODES = [
  "INVALID_BODY",
  "FORBIDDEN",
  "UNAUTHORIZED",
  "RATE_LIMITED",
  "NOT_FOUND",
  "SESSION_BUSY",
  "BROWSER_BUSY",
  "TASK_FINISHED",
  "ANSWER_FINISHED",
  "NOT_REPLAYABLE",
  "NOT_EXPORTABLE",
  "TASK_NOT_ENDED",
  "NOT_CONTINUABLE",
  "FOLLOW_UP_REFUSED",
  "TASK_NOT_AWAITING_USER",
  "TASK_NOT_TAKEN_OVER",
  "TASK_NOT_RUNNING",
  "NO_SUCH_APPROVAL",
  "PLANNER_INVALID_OUTPUT",
  "MODEL_HTTP_ERROR",
  "MODEL_TIMEOUT",
  "MODEL_UNREACHABLE",
  "BROWSER_UNAVAILABLE",
  /** Every browser of BROWSER_CDP_URLS stayed busy or down while the task waited for one. */
  "NO_BROWSER_FREE",
  "COMPUTER_UNAVAILABLE",
  "BROWSER_CRASHED",
  "PAGE_UNRESPONSIVE",
  "ACTION_FAILED",
  "PAGE_PREP_FAILED",
  "READABILITY_TOO_LARGE",
  "INVALID_TARGET",
  "DENIED",
  "TASK_INCOMPLETE",
  "STEP_LIMIT",
  "TIME_LIMIT",
  "INTERRUPTED",
  "DATA_DIR_LOCKED",
  "STORAGE_FAILED",
  "INTERNAL",
  /** An evaluation suite (src/eval/suite.ts) that names a field wrongly or misses one. */
  "INVALID_SUITE",
  // The extension's (seed 004 §4, §5.1); some are the same as the ones above.
  ...EXTENSION_ERROR_CODES,
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorReply = { error: { code: ErrorCode; message: string } };
