// Relays the CDP of task tabs, so the server can drive a tab as a page of its own (Playwright over
// this relay): `cdp_command` → chrome.debugger.sendCommand on the task's tab (a child target
// through its flat `sessionId`) → `cdp_result`; every debugger event of a task tab → `cdp_event`;
// the debugger letting go → `cdp_detached`. Input.* commands open the overlay's agent-input window.
import type { ExtensionMessage, ServerMessage } from "../../../src/protocol/extension.ts";
import { readSettings } from "../shared/settings.ts";
import { errorMessage } from "./action-error.ts";
import { closeAgentInput, openAgentInput } from "./agent-input.ts";
import * as cdp from "./debugger.ts";
import { openTab, refuseOwnOrigin, tasks } from "./tasks.ts";

type CdpCommand = Extract<ServerMessage, { type: "cdp_command" }>;

/**
 * The commands reach Chrome in the order the server sent them, as over a DevTools socket: each is
 * handed to the debugger only after the one before it was. Their answers then come back in
 * Chrome's own order among the events (Playwright needs a frame tree before the contexts in it).
 */
let handedOver: Promise<unknown> = Promise.resolve();

export function relayCommand(command: CdpCommand, send: (message: ExtensionMessage) => void): Promise<void> {
  const started = handedOver.then(() => start(command));
  handedOver = started.catch(() => undefined);
  return started
    .then(async ({ running }) => send({ type: "cdp_result", id: command.id, result: (await running) ?? {} }))
    .catch((err: unknown) => send({ type: "cdp_result", id: command.id, error: errorMessage(err) }));
}

/** Checks the command and hands it to the debugger; `running` settles with Chrome's answer. */
async function start(command: CdpCommand): Promise<{ running: Promise<unknown> }> {
  const record = await tasks.get(command.taskId);
  if (!record) throw new Error(`Task ${command.taskId} has no tab in this browser (task_start first).`);
  const tabId = record.tabId;
  const tab = await openTab(tabId);
  if (!tab) throw new Error(`Task ${command.taskId}'s tab ${tabId} was closed.`);
  const acts = command.method.startsWith("Input.") || command.method === "Page.navigate";
  if (acts) {
    // Acting on the server's own page (or going to it) is refused here as in every action.
    const { serverUrl } = await readSettings();
    refuseOwnOrigin(tab.url || tab.pendingUrl, serverUrl);
    if (command.method === "Page.navigate") refuseOwnOrigin((command.params as { url?: string } | undefined)?.url, serverUrl);
  }
  // Never attached behind the server's back: the person may have cancelled the debugger.
  if (!(await cdp.isAttached(tabId))) throw new Error(`The debugger is not attached to task ${command.taskId}'s tab ${tabId}; send browser_debugger_attach first.`);
  const target: chrome.debugger.DebuggerSession = command.sessionId ? { tabId, sessionId: command.sessionId } : { tabId };
  const call = () => chrome.debugger.sendCommand(target, command.method, (command.params ?? undefined) as object | undefined);
  if (!command.method.startsWith("Input.")) return { running: call() };
  await openAgentInput(tabId);
  const running = call();
  void running.finally(() => closeAgentInput(tabId)).catch(() => undefined);
  return { running };
}

/** Forwards the events and detaches of task tabs; the tabs of no task are nobody's business. */
export function relayEvents(send: (message: ExtensionMessage) => void): void {
  chrome.debugger.onEvent.addListener((source, method, params) => {
    // At once, not after an await: the server must see events and results in CDP's order.
    const taskId = source.tabId === undefined ? undefined : tasks.taskOfTab(source.tabId);
    if (taskId) send({ type: "cdp_event", taskId, ...(source.sessionId ? { sessionId: source.sessionId } : {}), method, ...(params !== undefined ? { params } : {}) });
  });
  chrome.debugger.onDetach.addListener((source, reason) => {
    if (source.tabId === undefined) return;
    const tabId = source.tabId;
    void cdp.forget(tabId);
    const taskId = tasks.taskOfTab(tabId);
    if (taskId) send({ type: "cdp_detached", taskId, reason });
  });
}
