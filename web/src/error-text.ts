// Owns how an error reads to a person: for every code the server can send (API replies, task
// and chat failures, tool results) a plain reason in the UI's language. The server's own message
// stays available for developers behind a details disclosure; it is never the headline.
import { locale } from "./i18n.ts";
import type { ErrorCode } from "./protocol.ts";

/** Codes that are not AppError codes: tool results, the chat assistant's limit, and the UI's own. */
type OtherCode = "TASK_LIMIT" | "UNKNOWN_TOOL" | "INVALID_ARGUMENTS" | "WAIT_TIMEOUT" | "NETWORK" | "HTTP_ERROR";
export type KnownCode = ErrorCode | OtherCode;

const en: Record<KnownCode, string> = {
  INVALID_BODY: "The request was not in a form the server accepts.",
  FORBIDDEN: "The server refused this request from this page.",
  UNAUTHORIZED: "The server asked for a sign-in that this page does not have.",
  RATE_LIMITED: "Too many requests at once. Wait a moment and try again.",
  NOT_FOUND: "That chat or task no longer exists.",
  SESSION_BUSY: "This chat is still busy with a task or an answer. Wait for it or stop it first.",
  BROWSER_BUSY: "Another task is already driving that browser page. Wait for it or pick another page.",
  TASK_FINISHED: "The task has already ended.",
  ANSWER_FINISHED: "The answer has already ended.",
  NOT_REPLAYABLE: "This task cannot be run again from its recording.",
  NOT_EXPORTABLE: "This task cannot be exported in that format.",
  TASK_NOT_ENDED: "The task has not ended yet: stop it or wait for it first.",
  NOT_CONTINUABLE: "This task completed; there is nothing to continue.",
  FOLLOW_UP_REFUSED: "The running task cannot take this message. Wait for it to end, or stop it, then send it again.",
  TASK_NOT_AWAITING_USER: "The task is no longer waiting for you.",
  TASK_NOT_TAKEN_OVER: "The screen is not yours at the moment, so there is nothing to hand back.",
  TASK_NOT_RUNNING: "The task is not running any more.",
  NO_SUCH_APPROVAL: "That approval request has already been answered or has expired.",
  PLANNER_INVALID_OUTPUT: "The AI model gave an answer the agent could not use, even after asking again.",
  MODEL_HTTP_ERROR: "The AI model's service returned an error.",
  MODEL_TIMEOUT: "The AI model took too long to answer.",
  MODEL_UNREACHABLE: "The AI model's service could not be reached. Check the server's model settings and network.",
  BROWSER_UNAVAILABLE: "The browser could not be started or reached.",
  NO_BROWSER_FREE: "Every browser the server may use is busy or down. Try again in a moment.",
  COMPUTER_UNAVAILABLE: "The computer the task should drive could not be started or reached.",
  BROWSER_CRASHED: "The browser crashed during the task.",
  PAGE_UNRESPONSIVE: "The page stopped responding, so the agent could no longer see it.",
  ACTION_FAILED: "An action on the screen did not work.",
  PAGE_PREP_FAILED: "The page did not finish loading in time.",
  READABILITY_TOO_LARGE: "The page is too large to read in one go.",
  INVALID_TARGET: "The element the agent wanted to use could not be found on the page.",
  DENIED: "The action was not allowed, so the agent did not do it.",
  TASK_INCOMPLETE: "The agent ended without finishing the task.",
  STEP_LIMIT: "The task used up its number of steps before it was finished.",
  TIME_LIMIT: "The task ran out of time before it was finished.",
  INTERRUPTED: "The server stopped while this was under way.",
  DATA_DIR_LOCKED: "Another server is already using this data folder.",
  STORAGE_FAILED: "The server could not save its records.",
  INTERNAL: "Something went wrong inside the server.",
  INVALID_SUITE: "The evaluation suite has a mistake; the message names the task and the field.",
  PLUGIN_OFFLINE: "Your Chrome's EasyAgentCU extension is not connected.",
  PLUGIN_TIMEOUT_ACK: "Your Chrome's extension did not respond in time.",
  PLUGIN_TIMEOUT_EXEC: "Your Chrome's extension took too long to carry out an action.",
  CDP_UNAVAILABLE: "The task's tab in your Chrome could not be controlled.",
  INVALID_TASK_TAB: "The task's tab in your Chrome is not one the extension may use.",
  TASK_TAB_CLOSED: "The task's tab in your Chrome was closed.",
  SCHEMA_VALIDATION_FAILED: "The extension and the server did not understand each other. Update the extension.",
  OWN_ORIGIN: "The agent never acts on EasyAgentCU's own page.",
  DEBUGGER_BUSY: "Another debugger (such as DevTools) is attached to that tab. Close it and try again.",
  TASK_LIMIT: "The assistant reached the most tasks it may start for one message.",
  UNKNOWN_TOOL: "The AI model asked for a tool that does not exist.",
  INVALID_ARGUMENTS: "The AI model asked for a tool with unusable settings.",
  WAIT_TIMEOUT: "What the agent waited for did not happen in time.",
  NETWORK: "The server cannot be reached. Check that it is running.",
  HTTP_ERROR: "The server answered with an error.",
};

const zh: Record<KnownCode, string> = {
  INVALID_BODY: "请求的格式不被服务器接受。",
  FORBIDDEN: "服务器拒绝了来自此页面的请求。",
  UNAUTHORIZED: "服务器要求登录，而此页面没有登录信息。",
  RATE_LIMITED: "请求过于频繁，请稍后再试。",
  NOT_FOUND: "该对话或任务已不存在。",
  SESSION_BUSY: "此对话仍在执行任务或回答，请等待或先停止它。",
  BROWSER_BUSY: "另一个任务正在操作该浏览器页面，请等待或换一个页面。",
  TASK_FINISHED: "任务已经结束。",
  ANSWER_FINISHED: "回答已经结束。",
  NOT_REPLAYABLE: "此任务无法按记录再运行一次。",
  NOT_EXPORTABLE: "此任务无法以该格式导出。",
  TASK_NOT_ENDED: "任务尚未结束：请先停止它或等它结束。",
  NOT_CONTINUABLE: "此任务已完成，没有可继续的内容。",
  FOLLOW_UP_REFUSED: "正在运行的任务无法接收这条消息。请等它结束或先停止它，然后再发送。",
  TASK_NOT_AWAITING_USER: "任务已不再等待你的操作。",
  TASK_NOT_TAKEN_OVER: "屏幕目前不在你手中，无需交还。",
  TASK_NOT_RUNNING: "任务已不在运行。",
  NO_SUCH_APPROVAL: "该批准请求已被处理或已过期。",
  PLANNER_INVALID_OUTPUT: "AI 模型给出的回答无法使用，重试后仍然如此。",
  MODEL_HTTP_ERROR: "AI 模型服务返回了错误。",
  MODEL_TIMEOUT: "AI 模型回答超时。",
  MODEL_UNREACHABLE: "无法连接 AI 模型服务，请检查服务器的模型设置和网络。",
  BROWSER_UNAVAILABLE: "无法启动或连接浏览器。",
  NO_BROWSER_FREE: "服务器可用的浏览器都在忙或无法连接，请稍后再试。",
  COMPUTER_UNAVAILABLE: "无法启动或连接任务要操作的电脑。",
  BROWSER_CRASHED: "浏览器在任务中崩溃了。",
  PAGE_UNRESPONSIVE: "页面停止响应，智能体无法再看到它。",
  ACTION_FAILED: "屏幕上的某个操作没有成功。",
  PAGE_PREP_FAILED: "页面未能及时加载完成。",
  READABILITY_TOO_LARGE: "页面太大，无法一次读取。",
  INVALID_TARGET: "在页面上找不到智能体要操作的元素。",
  DENIED: "该操作未被允许，智能体没有执行。",
  TASK_INCOMPLETE: "智能体未完成任务就结束了。",
  STEP_LIMIT: "任务在完成前用完了步数上限。",
  TIME_LIMIT: "任务在完成前用完了时间上限。",
  INTERRUPTED: "服务器在进行中途停止了。",
  DATA_DIR_LOCKED: "另一个服务器正在使用此数据目录。",
  STORAGE_FAILED: "服务器无法保存记录。",
  INTERNAL: "服务器内部出错。",
  INVALID_SUITE: "评测套件有误；详细信息指明了出错的任务和字段。",
  PLUGIN_OFFLINE: "你的 Chrome 中的 EasyAgentCU 扩展未连接。",
  PLUGIN_TIMEOUT_ACK: "你的 Chrome 扩展没有及时响应。",
  PLUGIN_TIMEOUT_EXEC: "你的 Chrome 扩展执行操作超时。",
  CDP_UNAVAILABLE: "无法控制你的 Chrome 中的任务标签页。",
  INVALID_TASK_TAB: "你的 Chrome 中的任务标签页不能由扩展使用。",
  TASK_TAB_CLOSED: "你的 Chrome 中的任务标签页已被关闭。",
  SCHEMA_VALIDATION_FAILED: "扩展与服务器无法互相理解，请更新扩展。",
  OWN_ORIGIN: "智能体从不操作 EasyAgentCU 自己的页面。",
  DEBUGGER_BUSY: "该标签页已连接了另一个调试器（如开发者工具），请关闭后重试。",
  TASK_LIMIT: "助手为一条消息启动的任务已达上限。",
  UNKNOWN_TOOL: "AI 模型请求了一个不存在的工具。",
  INVALID_ARGUMENTS: "AI 模型请求工具时给出的参数无法使用。",
  WAIT_TIMEOUT: "智能体等待的情况没有及时出现。",
  NETWORK: "无法连接服务器，请确认它正在运行。",
  HTTP_ERROR: "服务器返回了错误。",
};

/** A model service's HTTP status says more than its code: a refused key is not a busy service. */
const modelStatus = {
  en: {
    auth: "The AI model's service refused the API key. Check the key in the server's settings.",
    missing: "The AI model's service does not know the configured model. Check the model name in the server's settings.",
    limited: "The AI model's service is rate-limiting or out of quota. Wait a moment, or check the account.",
    down: "The AI model's service had a problem of its own. Try again in a moment.",
    notModel: "The model's address answered, but not as an AI model does (no JSON reply). Check the model's address and provider in the server's settings.",
  },
  zh: {
    auth: "AI 模型服务拒绝了 API 密钥，请检查服务器设置中的密钥。",
    missing: "AI 模型服务不认识所配置的模型，请检查服务器设置中的模型名称。",
    limited: "AI 模型服务限流或额度已用完，请稍后再试或检查账户。",
    down: "AI 模型服务自身出了问题，请稍后再试。",
    notModel: "模型地址有回应，但不是 AI 模型的回复（没有 JSON）。请检查服务器设置中的模型地址和服务商。",
  },
};

const generic = { en: "Something went wrong.", zh: "出错了。" };

/** How the server says a model endpoint's 2xx answer was no model reply (models/http.ts, the chat streams). */
const NOT_A_MODEL_REPLY = /answered something that is not JSON|reply is not a|instead of an event stream|is not a chat completion chunk|streamed an event that does not parse/;

/** The plain reason for an error code in the UI's language; the message refines a model service's HTTP failure. */
export function plainReason(code: string, message = ""): string {
  if (code === "MODEL_HTTP_ERROR") {
    const status = Number(/\bHTTP (\d{3})\b/.exec(message)?.[1] ?? 0);
    const words = modelStatus[locale];
    if (status === 401 || status === 403) return words.auth;
    if (status === 404) return words.missing;
    if (status === 429) return words.limited;
    if (status >= 500) return words.down;
    // The endpoint answered, but not in a model's protocol: the address is not a model's.
    if (NOT_A_MODEL_REPLY.test(message)) return words.notModel;
  }
  const table = locale === "zh" ? zh : en;
  return (table as Record<string, string>)[code] ?? generic[locale];
}

/**
 * The agent's own words that explain an ending (its reasoning when it gave up), worth showing
 * beside the plain reason; other messages are the server's, for the details.
 */
export function agentWords(code: string, message: string): string | null {
  return code === "TASK_INCOMPLETE" && message.trim() ? message.trim() : null;
}

/** Why a task was stopped, in the UI's language; a reason the UI does not know is shown as sent. */
export function stopReasonText(reason: string): string {
  const known: Record<string, { en: string; zh: string }> = {
    "stopped by the user": { en: "You stopped it.", zh: "已由你停止。" },
    "the server is shutting down": { en: "The server was shutting down.", zh: "服务器正在关闭。" },
    "the pointer was moved to the top-left corner of the screen (the fail-safe)": {
      en: "The pointer was moved to the top-left corner of the screen, which stops the agent (the fail-safe).",
      zh: "鼠标被移到了屏幕左上角，这会让智能体停下（安全机制）。",
    },
  };
  return known[reason]?.[locale] ?? reason;
}
