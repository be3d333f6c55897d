// The wire between the server and the Chrome extension (seed 004): one WebSocket per extension
// client, JSON messages of the shapes below. The extension reports its windows, tabs and groups
// (`full_state_sync`, `tab_event`), runs the action catalog of §4.2 (`browser_action`, acked, then
// answered with `browser_action_result`), and relays the CDP of its task tabs (`cdp_command`,
// `cdp_result`, `cdp_event`) through `chrome.debugger`, and hands the server the bytes of the
// downloads its task tabs start (`download_began`, then on `download_fetch` `download_data` and
// `download_end`). Action names are snake_case, fields camelCase, as the seed writes them. The
// extension's code imports this file too.
import { z } from "zod";

/** Where the extension connects: `ws://host:port` + this path, `?token=` the install token. */
export const EXTENSION_WS_PATH = "/api/extension/ws";
/** The upload path of the artifact service; `…/:id` downloads one. */
export const EXTENSION_ARTIFACTS_PATH = "/api/extension/artifacts";
/** An artifact (a screenshot, a page's HTML or text) may be at most this large. */
export const ARTIFACT_MAX_BYTES = 8 * 1024 * 1024;
/** Readability text this long or longer goes as an artifact (§4.2 B); longer than the second fails. */
export const READABILITY_INLINE_BYTES = 256 * 1024;
export const READABILITY_MAX_BYTES = 2 * 1024 * 1024;
/** A download's bytes go to the server in `download_data` messages of at most this many bytes (before base64). */
export const DOWNLOAD_CHUNK_BYTES = 512 * 1024;
/** The attribute `browser_dom_index` writes its click ids into, unless told another. */
export const CLICK_ID_ATTR = "data-easyagentcu_click_id";

export const ACTION_NAMES = [
  "task_start",
  "browser_debugger_attach",
  "task_stop",
  "browser_wait_for_loaded",
  "browser_screenshot",
  "browser_readability_extract",
  "browser_dom_index",
  "browser_xpath_scan",
  "browser_click",
  "browser_type",
  "browser_get_html",
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** The error codes of §4 and §5.1. */
export const EXTENSION_ERROR_CODES = [
  "PLUGIN_OFFLINE",
  "PLUGIN_TIMEOUT_ACK",
  "PLUGIN_TIMEOUT_EXEC",
  "PAGE_PREP_FAILED",
  "CDP_UNAVAILABLE",
  "INVALID_TASK_TAB",
  "TASK_TAB_CLOSED",
  "INVALID_TARGET",
  "READABILITY_TOO_LARGE",
  "SCHEMA_VALIDATION_FAILED",
  "OWN_ORIGIN",
  "DEBUGGER_BUSY",
  "ACTION_FAILED",
] as const;
export type ExtensionErrorCode = (typeof EXTENSION_ERROR_CODES)[number];
/** §5.1: these may be tried once more (after 1 s); the others fail at once. */
export const RETRYABLE_CODES: ReadonlySet<ExtensionErrorCode> = new Set(["PLUGIN_OFFLINE", "PLUGIN_TIMEOUT_ACK", "PLUGIN_TIMEOUT_EXEC", "PAGE_PREP_FAILED", "CDP_UNAVAILABLE"]);

const tabId = z.number().int();
const box = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });

/** §4.2's parameters, per action. Every action but `task_start` names the task's tab. */
export const actionParamsSchemas = {
  task_start: z.object({ url: z.string().optional(), reuseExistingTab: z.boolean().optional(), groupTitle: z.string().optional() }),
  browser_debugger_attach: z.object({ tabId }),
  task_stop: z.object({ closeTab: z.boolean().optional() }),
  browser_wait_for_loaded: z.object({ tabId, timeoutMs: z.number().int().positive().optional() }),
  browser_screenshot: z.object({ tabId, fullPage: z.boolean().optional() }),
  browser_readability_extract: z.object({ tabId }),
  browser_dom_index: z.object({ tabId, scope: z.enum(["viewport", "document"]).optional(), assignAttr: z.string().optional() }),
  browser_xpath_scan: z.object({ tabId, scope: z.enum(["viewport", "document"]).optional() }),
  browser_click: z.object({ tabId, clickId: z.number().int().optional(), xpath: z.string().optional(), strategy: z.enum(["cdp_mouse", "dom_click"]).optional() }),
  browser_type: z.object({
    tabId,
    xpath: z.string().optional(),
    clickId: z.number().int().optional(),
    text: z.string(),
    submit: z.boolean().optional(),
    strategy: z.enum(["cdp_key", "dom_input"]).optional(),
  }),
  browser_get_html: z.object({ tabId, xpath: z.string().optional() }),
} satisfies Record<ActionName, z.ZodType>;
export type ActionParams<N extends ActionName> = z.infer<(typeof actionParamsSchemas)[N]>;

const indexedElement = z.object({ clickId: z.number().int(), tag: z.string(), text: z.string().optional(), xpath: z.string().optional(), bbox: box.optional() });

/** §4.2's results, per action. */
export const actionResultSchemas = {
  task_start: z.object({ tabId, windowId: z.number().int(), groupId: z.number().int().optional(), url: z.string(), title: z.string().optional() }),
  browser_debugger_attach: z.object({ attached: z.literal(true) }),
  task_stop: z.object({ stopped: z.literal(true) }),
  browser_wait_for_loaded: z.object({ status: z.literal("complete") }),
  browser_screenshot: z.object({ artifactId: z.string(), url: z.string(), width: z.number().int(), height: z.number().int() }),
  browser_readability_extract: z.object({
    artifactId: z.string().optional(),
    text: z.string().optional(),
    markdown: z.string().optional(),
    title: z.string().optional(),
    contentLengthBytes: z.number().int().optional(),
    truncated: z.boolean().optional(),
  }),
  browser_dom_index: z.object({ elements: z.array(indexedElement) }),
  browser_xpath_scan: z.object({ elements: z.array(indexedElement.extend({ xpath: z.string(), clickId: z.number().int().optional() })) }),
  browser_click: z.object({ clicked: z.literal(true), strategy: z.enum(["cdp_mouse", "dom_click"]) }),
  browser_type: z.object({ typed: z.literal(true), strategy: z.enum(["cdp_key", "dom_input"]) }),
  browser_get_html: z.object({ artifactId: z.string(), url: z.string() }),
} satisfies Record<ActionName, z.ZodType>;
export type ActionResult<N extends ActionName> = z.infer<(typeof actionResultSchemas)[N]>;

export const extensionErrorSchema = z.object({ code: z.enum(EXTENSION_ERROR_CODES), message: z.string(), retryable: z.boolean().optional() });
export type ExtensionError = z.infer<typeof extensionErrorSchema>;

export const snapshotTabSchema = z.object({
  id: tabId,
  windowId: z.number().int(),
  groupId: z.number().int().optional(),
  index: z.number().int(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
});
export const snapshotSchema = z.object({
  windows: z.array(z.object({ id: z.number().int(), focused: z.boolean() })),
  tabs: z.array(snapshotTabSchema),
  groups: z.array(z.object({ id: z.number().int(), windowId: z.number().int(), title: z.string(), color: z.string() })),
  activeTabId: tabId.nullable(),
});
export type BrowserSnapshot = z.infer<typeof snapshotSchema>;
export type SnapshotTab = z.infer<typeof snapshotTabSchema>;

/** What the extension sends. */
export const extensionMessageSchema = z.discriminatedUnion("type", [
  /** The first message: who it is. The id stays the same across restarts of the browser. */
  z.object({ type: z.literal("hello"), clientId: z.string().min(8).max(100), name: z.string().max(200), version: z.string().max(40), userAgent: z.string().max(500) }),
  z.object({ type: z.literal("full_state_sync"), snapshot: snapshotSchema }),
  z.discriminatedUnion("event", [
    z.object({ type: z.literal("tab_event"), event: z.enum(["created", "updated", "activated"]), tab: snapshotTabSchema }),
    z.object({ type: z.literal("tab_event"), event: z.literal("removed"), tabId, windowId: z.number().int() }),
  ]),
  /** Every 20 s, which also keeps an MV3 service worker alive while it is connected. */
  z.object({ type: z.literal("heartbeat") }),
  /** The action arrived and is being run. */
  z.object({ type: z.literal("ack"), id: z.string() }),
  z.object({
    type: z.literal("browser_action_result"),
    id: z.string(),
    ok: z.boolean(),
    /** `partial`: the action did part of its work; `warnings` say what was missing (§4.5, §4.6). */
    status: z.enum(["success", "partial"]).optional(),
    result: z.unknown().optional(),
    error: extensionErrorSchema.optional(),
    warnings: z.array(z.string()).optional(),
  }),
  z.object({ type: z.literal("cdp_result"), id: z.number().int(), result: z.unknown().optional(), error: z.string().optional() }),
  z.object({ type: z.literal("cdp_event"), taskId: z.string(), sessionId: z.string().optional(), method: z.string(), params: z.unknown().optional() }),
  /** The debugger let go of the task's tab: the tab closed, or the person cancelled it. */
  z.object({ type: z.literal("cdp_detached"), taskId: z.string(), reason: z.string() }),
  /** The person used the task's tab while the agent had it (§2.1 rule 4): the task pauses. */
  z.object({ type: z.literal("takeover"), taskId: z.string() }),
  /** Resume or Stop pressed in the page's overlay. */
  z.object({ type: z.literal("overlay_command"), taskId: z.string(), command: z.enum(["resume", "stop"]) }),
  /** A download the task's tab started (`chrome.downloads`' id), named as the page suggested; its size when the site said it. */
  z.object({ type: z.literal("download_began"), taskId: z.string(), downloadId: z.number().int(), name: z.string().max(1000), totalBytes: z.number().int().nonnegative().nullable() }),
  /** The next part of a fetched download's bytes, base64, in order. */
  z.object({ type: z.literal("download_data"), taskId: z.string(), downloadId: z.number().int(), chunk: z.string() }),
  /** A fetched download ends: all its bytes were sent, it grew past the cap (cancelled), or it failed. */
  z.object({
    type: z.literal("download_end"),
    taskId: z.string(),
    downloadId: z.number().int(),
    outcome: z.enum(["kept", "too_large", "failed"]),
    size: z.number().int().nonnegative(),
    reason: z.string().max(500).optional(),
  }),
]);
export type ExtensionMessage = z.infer<typeof extensionMessageSchema>;

/** A connected extension as GET /api/extension/extension-list lists it. */
export interface ExtensionListing {
  clientId: string;
  name: string;
  version: string;
  userAgent: string;
  connectedAt: string;
  lastUsedAt: string | null;
  /** Tasks bound to it now. */
  taskIds: string[];
  tabs: number;
}
export type ExtensionListReply = { extensions: ExtensionListing[] };

/** The overlay's four states (§2.2). */
export const OVERLAY_STATES = ["idle", "hidden", "ongoing", "takeover"] as const;
export type OverlayState = (typeof OVERLAY_STATES)[number];

/** What the server sends; the extension checks each message against it before acting. */
export const serverMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("welcome"), clientId: z.string() }),
  z.object({
    type: z.literal("browser_action"),
    id: z.string(),
    actionId: z.string(),
    taskId: z.string(),
    clientId: z.string(),
    /** One of ACTION_NAMES; an unknown name (a newer server) is answered SCHEMA_VALIDATION_FAILED, not dropped. */
    name: z.string(),
    /** Checked against `actionParamsSchemas[name]` by the extension, which answers SCHEMA_VALIDATION_FAILED. */
    params: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal("cdp_command"), id: z.number().int(), taskId: z.string(), sessionId: z.string().optional(), method: z.string(), params: z.unknown().optional() }),
  z.object({ type: z.literal("task_state"), taskId: z.string(), tabId: tabId, state: z.enum(OVERLAY_STATES) }),
  /**
   * Send the download's bytes once it is complete (`download_data`, then `download_end`); one that
   * is or grows larger than `maxBytes` is cancelled and ends `too_large`.
   */
  z.object({ type: z.literal("download_fetch"), taskId: z.string(), downloadId: z.number().int(), maxBytes: z.number().int().positive() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
