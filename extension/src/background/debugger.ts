// The extension's hold on tabs through chrome.debugger: attaching, sending CDP commands, and
// knowing which tabs are held. The set survives a restart of the worker in chrome.storage.session.
// Chrome 125+ lets several debuggers hold a tab, and answers "Another debugger is already attached"
// when this extension holds it already (from before a restart): a probe tells that apart from a
// browser that refuses a second debugger (older Chrome), which is DEBUGGER_BUSY.
import { ActionError, errorMessage } from "./action-error.ts";

const PROTOCOL_VERSION = "1.3";
const KEY = "attachedTabs";
let held: Promise<Set<number>> | undefined;

const load = () => (held ??= chrome.storage.session.get(KEY).then((s) => new Set<number>((s[KEY] as number[] | undefined) ?? [])));
const save = async (set: Set<number>) => chrome.storage.session.set({ [KEY]: [...set] });

export async function isAttached(tabId: number): Promise<boolean> {
  return (await load()).has(tabId);
}

/** Attaches to the tab unless this extension already holds it. */
export async function attach(tabId: number): Promise<void> {
  const set = await load();
  if (set.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
  } catch (err) {
    const message = errorMessage(err);
    if (/already attached/i.test(message)) {
      // Perhaps ours, from before the worker restarted: a command goes through only if so.
      const ours = await chrome.debugger.sendCommand({ tabId }, "Runtime.evaluate", { expression: "0" }).then(() => true, () => false);
      if (!ours) {
        throw new ActionError(
          "DEBUGGER_BUSY",
          `Another debugger is already attached to tab ${tabId}: DevTools is open on that tab, or another tool or extension is debugging it. Close DevTools (or stop that tool) and try again.`,
          false,
        );
      }
    } else if (/cannot access|cannot attach|chrome:\/\/|chrome-extension:\/\//i.test(message)) {
      throw new ActionError("INVALID_TARGET", `Cannot debug tab ${tabId}: ${message}. Browser pages (chrome://, other extensions, the web store) cannot be automated.`);
    } else {
      throw new ActionError("CDP_UNAVAILABLE", `Could not attach the debugger to tab ${tabId}: ${message}`);
    }
  }
  set.add(tabId);
  await save(set);
}

export async function detach(tabId: number): Promise<void> {
  const set = await load();
  if (!set.has(tabId)) return;
  set.delete(tabId);
  await save(set);
  await chrome.debugger.detach({ tabId }).catch(() => {});
}

/** The debugger let go (tab closed, person cancelled the infobar): forget the tab. */
export async function forget(tabId: number): Promise<void> {
  const set = await load();
  if (set.delete(tabId)) await save(set);
}

/** A CDP command on a held tab (or one of its child sessions). Throws CDP_UNAVAILABLE when it fails. */
export async function send<T = unknown>(tabId: number, method: string, params?: object, sessionId?: string): Promise<T> {
  const target: chrome.debugger.DebuggerSession = sessionId ? { tabId, sessionId } : { tabId };
  try {
    return (await chrome.debugger.sendCommand(target, method, params)) as T;
  } catch (err) {
    throw new ActionError("CDP_UNAVAILABLE", `CDP ${method} failed on tab ${tabId}: ${errorMessage(err)}`);
  }
}
