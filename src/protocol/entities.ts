// The domain records of seed 000 §3.1 as the API returns them: sessions, messages, tasks, steps
// and frames. Times are ISO-8601 strings; ids are opaque strings.
import { z } from "zod";
import { actionSchema } from "./actions.ts";

/** `takeover`: the person has the screen (seed 004 §2.1); the agent waits until they hand it back. */
export const TASK_STATUSES = ["queued", "running", "awaiting_user", "takeover", "completed", "failed", "stopped"] as const;
export const taskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** A task in one of these states will not run again. */
export const FINISHED_STATUSES: readonly TaskStatus[] = ["completed", "failed", "stopped"];
export function isFinished(status: TaskStatus): boolean {
  return FINISHED_STATUSES.includes(status);
}

export const attachmentSchema = z.object({
  name: z.string().min(1).max(255),
  mime_type: z.string().min(1).max(255),
  /** A `data:` URL holding the file. */
  data_url: z
    .string()
    .max(10 * 1024 * 1024)
    .regex(/^data:[^,]*;base64,[A-Za-z0-9+/=\s]*$|^data:[^,;]*(;[^,;]+)*,[^%]*(%[0-9A-Fa-f]{2}[^%]*)*$/, "must be a data: URL"),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/**
 * Where a chat stands, from its latest task: `waiting` while that task waits its turn (queued),
 * `needs_you` while it waits for the person (awaiting_user, an approval among them), `with_you`
 * while the person has the screen (takeover): they are already on it, nothing calls them.
 */
export const SESSION_STATUSES = ["waiting", "running", "needs_you", "with_you", "done", "failed", "stopped"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export function sessionStatus(latest: TaskStatus | null): SessionStatus | null {
  switch (latest) {
    case null:
      return null;
    case "queued":
      return "waiting";
    case "running":
      return "running";
    case "awaiting_user":
      return "needs_you";
    case "takeover":
      return "with_you";
    case "completed":
      return "done";
    case "failed":
      return "failed";
    case "stopped":
      return "stopped";
  }
}

/**
 * What tokens cost in US dollars, by the price table in force when they were spent (shipped list
 * prices and MODEL_PRICES_FILE); null when a model that spent some has no price — never a made-up
 * zero. A total is null as soon as one of its parts is.
 */
export const costUsdSchema = z.number().nonnegative().nullable();

export const sessionSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The status of the session's latest task; null before its first task. */
  task_status: taskStatusSchema.nullable(),
  status: z.enum(SESSION_STATUSES).nullable(),
  /** The latest of its messages and tasks, or when it was made. */
  last_activity_at: z.string(),
  /** What its tasks' steps cost together (0 before its first step). */
  cost_usd: costUsdSchema.default(0),
});
export type Session = z.infer<typeof sessionSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  task_id: z.string().nullable(),
  role: z.enum(["user", "assistant"]),
  kind: z.enum(["user_text", "assistant_progress", "assistant_answer"]),
  text: z.string(),
  attachments: z.array(attachmentSchema.pick({ name: true, mime_type: true })),
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const frameRefSchema = z.object({
  id: z.string(),
  /** Where the image is served; changes whenever the image does. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type FrameRef = z.infer<typeof frameRefSchema>;

export const screenshotFrameSchema = frameRefSchema.extend({
  task_id: z.string(),
  step_id: z.string().nullable(),
  kind: z.enum(["raw", "annotated", "live"]),
  is_live: z.boolean(),
  created_at: z.string(),
});
export type ScreenshotFrame = z.infer<typeof screenshotFrameSchema>;

export const usageSchema = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() });
export type Usage = z.infer<typeof usageSchema>;


/**
 * What showed that an action had an effect, most telling first: a download it started, a page or
 * tab it opened, a dialog (an alert, a confirm, a file chooser), a navigation, a change in the
 * page's structure, on the screen, and only when nothing else showed one, a request that changes
 * something (a page may post for its own reasons); or nothing.
 */
export const EFFECTS_SEEN = ["download", "new_tab", "dialog", "navigation", "structure", "screen", "request", "none"] as const;
export type EffectSeen = (typeof EFFECTS_SEEN)[number];

/** What an action did to the screen (seed 002 §2.5), as the step records it. */
export const stepEffectSchema = z.object({
  changed: z.boolean(),
  /** Share of the screen's pixels that changed; null when the structure already showed an effect. */
  ratio: z.number().nullable(),
  /** DOM mutations, navigation, scrolling or requests seen where the computer can tell (browsers). */
  structural: z.boolean().nullable(),
  /** How many times a click without effect was repeated with a jittered point. */
  retries: z.number().int(),
  note: z.string().nullable(),
  /** Which effect was seen; absent on steps recorded before it was. */
  seen: z.enum(EFFECTS_SEEN).optional(),
});
export type StepEffect = z.infer<typeof stepEffectSchema>;

/** One look at where the pointer is before a click (seed 000 §4.1). */
export const verificationAttemptSchema = z.object({
  /** `hit_test`: the element under the pointer is the one that was there; `model`: the model looked. */
  method: z.enum(["hit_test", "model"]),
  /** The pointer, in the step screenshot's pixels. */
  cursor_x: z.number().int(),
  cursor_y: z.number().int(),
  on_target: z.boolean(),
  /** The model's correction, in the pixels of the image it saw. */
  dx: z.number().int().nullable(),
  dy: z.number().int().nullable(),
  /** The capture after the move, and the same annotated with circle, arrow and label. */
  frame: frameRefSchema.nullable(),
  annotated: frameRefSchema.nullable(),
});

export const stepVerificationSchema = z.object({
  verified: z.boolean(),
  attempts: z.array(verificationAttemptSchema),
  model_calls: z.number().int(),
  elapsed_ms: z.number().int(),
});
export type StepVerification = z.infer<typeof stepVerificationSchema>;
export type VerificationAttempt = z.infer<typeof verificationAttemptSchema>;

/** How an element can be found again (replay): its locator code, its XPath, and its box in screenshot pixels. */
export const elementTargetSchema = z.object({
  locator: z.string().nullable(),
  xpath: z.string().nullable(),
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable(),
});
export type ElementTarget = z.infer<typeof elementTargetSchema>;

/**
 * What a planner's step did, as Run again and the export do it again: the action as it was carried
 * out, in the step screenshot's pixels (after any correction of the pointer), and in a browser the
 * element the pointer was aimed at, as replay finds it again.
 */
export const carriedOutSchema = z.object({
  action: actionSchema,
  element: elementTargetSchema.nullable(),
});
export type CarriedOut = z.infer<typeof carriedOutSchema>;

/** What the tool agent did to an element it named. */
export const refActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("click") }),
  z.object({ kind: z.literal("fill"), value: z.string() }),
  z.object({ kind: z.literal("press"), key: z.string() }),
  z.object({ kind: z.literal("select"), value: z.string() }),
  z.object({ kind: z.literal("check"), checked: z.boolean() }),
  z.object({ kind: z.literal("hover") }),
]);
export type RefAction = z.infer<typeof refActionSchema>;

/** One call of the browser tool agent (seed 001 §12): what it asked for and what it got back. */
export const toolCallSchema = z.object({
  name: z.string(),
  /** How the tool itself names this call on the timeline (`goto "https://…"`). */
  label: z.string().nullable().default(null),
  input: z.unknown(),
  ok: z.boolean(),
  /** What the tool returned to the model; null when it failed. */
  output: z.unknown(),
  error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean().optional() }).nullable(),
  /** The elements it acted on, as replay finds them again, with what was done to each (null: a click or drag at a point). */
  targets: z.array(z.object({ target: elementTargetSchema, action: refActionSchema.nullable() })).default([]),
  /** A hash of the screen before the call. */
  before_hash: z.string().nullable().default(null),
  /** On a replay: done again from the recording, or healed by asking the model because the element was gone. */
  replay: z.enum(["replayed", "healed"]).nullable().default(null),
});
export type ToolCallRecord = z.infer<typeof toolCallSchema>;

/**
 * Where a step's time went, in milliseconds, by phase: the loop's time from the step before being
 * recorded until this one was (`total`); what no phase claims is the loop's own bookkeeping.
 * Storing a step and sending its event run behind the loop: `persistence` is what the loop waited
 * on the store (a pointer check's captures); the wait for the last steps at the task's end falls
 * on no step. For developers; absent on older steps.
 */
export const stepTimingsSchema = z.object({
  total: z.number(),
  capture: z.number().optional(),
  encode: z.number().optional(),
  perception: z.number().optional(),
  plan: z.number().optional(),
  policy: z.number().optional(),
  action: z.number().optional(),
  settle: z.number().optional(),
  verification: z.number().optional(),
  effect: z.number().optional(),
  persistence: z.number().optional(),
});
export type StepTimings = z.infer<typeof stepTimingsSchema>;

export const progressStepSchema = z.object({
  id: z.string(),
  task_id: z.string(),
  index: z.number().int(),
  text: z.string(),
  thought: z.string(),
  /** The computer action; null for a tool call that is not one (ariaTree, extract, think…). */
  action: actionSchema.nullable(),
  /** The tool call of a tool-agent step; null for a planner's step. */
  tool: toolCallSchema.nullable().default(null),
  /** A planner's action as it was carried out; null when it did not run (failed, not clicked, final) or for a tool-agent step. */
  carried_out: carriedOutSchema.nullable().default(null),
  screenshot: frameRefSchema.nullable(),
  /** Where the action happened, in the screenshot's pixels. */
  cursor_x: z.number().int().nullable(),
  cursor_y: z.number().int().nullable(),
  url: z.string().nullable(),
  /** Null for steps that did not act (done, needs_user) or whose action failed. */
  effect: stepEffectSchema.nullable().default(null),
  /** How the click's pointer was checked before clicking; null when it was not. */
  verification: stepVerificationSchema.nullable().default(null),
  planner: z.string(),
  usage: usageSchema,
  /** What the step's tokens cost; null for a model with no price, or a step recorded before costs were. */
  cost_usd: costUsdSchema.default(null),
  created_at: z.string(),
  timings: stepTimingsSchema.optional(),
});
export type ProgressStep = z.infer<typeof progressStepSchema>;

/**
 * A file the task received — a download of its browser, a new file in its desktop's downloads
 * folder — as kept with the task. `step`: the step under way when it began to arrive. `mime_type`
 * is read from its bytes, not from what the page claimed.
 */
export const taskFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mime_type: z.string(),
  size: z.number().int().nonnegative(),
  step: z.number().int().nonnegative(),
});
export type TaskFile = z.infer<typeof taskFileSchema>;

export const taskErrorSchema = z.object({ code: z.string(), message: z.string() });
export type TaskError = z.infer<typeof taskErrorSchema>;

/**
 * What an action may amount to, for the approval policy: the hands classify every action before
 * it runs (from its kind, its target element and the URL) and the policy says allow, ask or deny
 * for each class. `upload` puts one of the message's attachments into a page or a file dialog.
 * `medium_risk` and `high_risk` are the risk levels of seed 003's desktop tools
 * (mouse_action, keyboard_action; computer_use), judged once per call; `keyboard_input` is
 * keyboard_action's alone, for a policy that asks before the desktop's keyboard but not its
 * mouse (seed 003 §5-2's require_approval_for).
 */
export const ACTION_CLASSES = [
  "submit",
  "pay",
  "delete",
  "send",
  "download",
  "upload",
  "leave_site",
  "new_origin",
  "local_network",
  "sensitive_site",
  "sensitive_field",
  "hotkey",
  "medium_risk",
  "keyboard_input",
  "high_risk",
] as const;
export const actionClassSchema = z.enum(ACTION_CLASSES);
export type ActionClass = z.infer<typeof actionClassSchema>;

/**
 * An action waiting for the person's decision: classified as risky by the approval policy, or
 * flagged by the model itself (OpenAI's pending safety checks). `frame` is the screen before it,
 * `box` (or `at`) where on it the action lands, in the frame's pixels; `frame_origin` the origin
 * of the frame inside the page that the action lands in, when that is not the page's own.
 */
export const approvalSchema = z.object({
  id: z.string(),
  checks: z.array(z.object({ id: z.string(), code: z.string(), message: z.string() })),
  action: actionSchema.nullable(),
  tool: z.object({ name: z.string(), input: z.unknown() }).nullable().default(null),
  intent: z.string().default(""),
  url: z.string().nullable().default(null),
  frame: frameRefSchema.nullable().default(null),
  at: z.object({ x: z.number(), y: z.number() }).nullable().default(null),
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable().default(null),
  /**
   * The action follows the page, not the person: what it types, or the host of an address it opens
   * or sends to, is not in anything the person wrote for the task, and the page held it when the
   * action was judged. The card says the instruction came from the page.
   */
  from_page: z.boolean().default(false),
  frame_origin: z.string().nullable().default(null),
});
export type Approval = z.infer<typeof approvalSchema>;

/** How a task is driven: a planner's actions on the screen, or the browser tool agent (seed 001) in one of its modes. */
export const AGENT_MODES = ["actions", "dom", "hybrid"] as const;
export const agentModeSchema = z.enum(AGENT_MODES);
export type AgentMode = z.infer<typeof agentModeSchema>;

/** What a task drives: a browser of the server's, a whole desktop, or the person's own Chrome through the extension (seed 004). */
export const COMPUTERS = ["browser", "desktop", "extension"] as const;
export type ComputerKind = (typeof COMPUTERS)[number];

export const taskSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  text: z.string(),
  mode: z.enum(AGENT_MODES).default("actions"),
  computer: z.enum(COMPUTERS).default("browser"),
  /** The task this one replays ("Run again"), if any. */
  replay_of: z.string().nullable().default(null),
  /** A running browser the task drives over CDP instead of one of its own, and which of its pages. */
  cdp: z.object({ url: z.string(), target_id: z.string().nullable() }).nullable().default(null),
  /** The extension client the task was sent to, when one was named; else the registry picks one. */
  extension_client_id: z.string().nullable().default(null),
  start_url: z.string().nullable(),
  status: taskStatusSchema,
  current_step_index: z.number().int(),
  live_frame: frameRefSchema.nullable(),
  answer: z.string().nullable(),
  /** The flagged action waiting for the person's decision, while status is awaiting_user. */
  approval: approvalSchema.nullable().default(null),
  error: taskErrorSchema.nullable(),
  model: z.string(),
  usage: usageSchema,
  /** What its steps cost together. */
  cost_usd: costUsdSchema.default(0),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;
