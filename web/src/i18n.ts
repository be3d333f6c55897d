// The UI's words in English and Chinese, picked once from the browser's languages.
export type Locale = "en" | "zh";

const en = {
  appName: "EasyAgentCU",
  newChat: "New chat",
  chat: "Chat",
  chats: "Chats",
  noChats: "No chats yet.",
  openMenu: "Open chats",
  emptyTitle: "What should the agent do?",
  emptyHint: "Describe a task. The agent drives a browser and shows you every step.",
  message: "Message",
  messagePlaceholder: "Describe a task… (Enter to send, Shift+Enter for a new line)",
  send: "Send",
  attach: "Attach files",
  removeAttachment: (name: string) => `Remove ${name}`,
  startUrl: "Start URL (optional)",
  dropFiles: "Drop files to attach them",
  thinking: "Thinking…",
  starting: "Starting…",
  running: "Working",
  awaitingUser: "Needs your action",
  completed: "Done",
  failed: "Failed",
  stopped: "Stopped",
  stop: "Stop",
  stopTask: "Stop the task",
  showSteps: (n: number) => (n === 1 ? "Show 1 step" : `Show ${n} steps`),
  hideSteps: "Hide steps",
  showProgress: "Show all progress",
  hideProgress: "Hide progress",
  progress: "Progress",
  screen: "Screen",
  live: "Live",
  end: "End",
  stepOf: (n: number, total: number) => `Step ${n} of ${total}`,
  stepShot: (n: number) => `Screenshot of step ${n}`,
  liveShot: "Live screen",
  noFrame: "Waiting for the screen…",
  scrubber: "Steps and live screen",
  actionMarker: "Where the action happened",
  ack: "I've done it",
  taskFailed: "The task failed",
  taskStopped: "The task was stopped",
  connectionLost: "Connection lost. Reconnecting…",
  scrollToBottom: "Scroll to the latest message",
  attachments: "Attachments",
  loading: "Loading…",
  busy: "A task is still running in this chat. Stop it or wait for it before sending another.",
};

export type Strings = typeof en;

const zh: Strings = {
  appName: "EasyAgentCU",
  newChat: "新对话",
  chat: "聊天",
  chats: "对话",
  noChats: "还没有对话。",
  openMenu: "打开对话列表",
  emptyTitle: "要让智能体做什么？",
  emptyHint: "描述一个任务。智能体会操作浏览器，并展示每一步。",
  message: "消息",
  messagePlaceholder: "描述任务…（Enter 发送，Shift+Enter 换行）",
  send: "发送",
  attach: "添加附件",
  removeAttachment: (name: string) => `移除 ${name}`,
  startUrl: "起始网址（可选）",
  dropFiles: "松开以添加附件",
  thinking: "思考中…",
  starting: "正在启动…",
  running: "执行中",
  awaitingUser: "需要你操作",
  completed: "已完成",
  failed: "失败",
  stopped: "已停止",
  stop: "停止",
  stopTask: "停止任务",
  showSteps: (n: number) => `查看 ${n} 个步骤`,
  hideSteps: "收起步骤",
  showProgress: "展开全部进展",
  hideProgress: "收起进展",
  progress: "进展",
  screen: "屏幕",
  live: "实时",
  end: "结束",
  stepOf: (n: number, total: number) => `第 ${n} / ${total} 步`,
  stepShot: (n: number) => `第 ${n} 步的截图`,
  liveShot: "实时画面",
  noFrame: "等待屏幕画面…",
  scrubber: "步骤与实时画面",
  actionMarker: "动作发生的位置",
  ack: "我已经操作",
  taskFailed: "任务失败",
  taskStopped: "任务已停止",
  connectionLost: "连接已断开，正在重连…",
  scrollToBottom: "滚动到最新消息",
  attachments: "附件",
  loading: "加载中…",
  busy: "此对话中的任务仍在进行。请先停止或等待它结束，再发送新任务。",
};

export function pickLocale(languages: readonly string[]): Locale {
  const first = languages[0]?.toLowerCase() ?? "en";
  return first.startsWith("zh") ? "zh" : "en";
}

export const locale: Locale = pickLocale(typeof navigator === "undefined" ? [] : navigator.languages);
export const t: Strings = locale === "zh" ? zh : en;

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(locale === "zh" ? "zh-CN" : "en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}
