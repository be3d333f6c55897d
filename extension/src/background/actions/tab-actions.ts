// The task and tab actions of §4.2 A and the wait of B: a tab of the task's own in a tab group,
// opened in the background and never brought to the front; holding it with the debugger; letting
// it go; waiting for its page to load.
import { ActionError } from "../action-error.ts";
import * as cdp from "../debugger.ts";
import { clearOverlay, setOverlayState } from "../overlay.ts";
import { openTab, refuseOwnOrigin, taskTab, tasks } from "../tasks.ts";
import type { ActionContext, ActionHandler } from "./context.ts";

const DEFAULT_GROUP_TITLE = "EasyAgentCU";
const DEFAULT_LOAD_TIMEOUT_MS = 30_000;
const OPENABLE = /^(https?|about|data|file):/i;

export const taskStart: ActionHandler<"task_start"> = async (params, ctx) => {
  if (params.url !== undefined) {
    if (!OPENABLE.test(params.url)) throw new ActionError("INVALID_TARGET", `Cannot open ${JSON.stringify(params.url)}: only http(s), file, data and about: addresses can be opened.`);
    refuseOwnOrigin(params.url, ctx.settings.serverUrl);
  }
  const existing = await tasks.get(ctx.taskId);
  let tab = params.reuseExistingTab && existing ? await openTab(existing.tabId) : undefined;
  if (tab) {
    refuseOwnOrigin(tab.url || tab.pendingUrl, ctx.settings.serverUrl);
    if (params.url !== undefined) tab = await chrome.tabs.update(tab.id!, { url: params.url });
  } else {
    if (existing) {
      await cdp.detach(existing.tabId);
      await clearOverlay(existing.tabId, ctx.taskId);
    }
    tab = await openBackgroundTab(params.url ?? "about:blank");
  }
  const tabId = tab!.id!;
  const groupId = await groupTab(tab!, params.groupTitle ?? DEFAULT_GROUP_TITLE, ctx);
  await tasks.set(ctx.taskId, { tabId, overlay: existing?.tabId === tabId ? existing.overlay : "idle" });
  const now = (await openTab(tabId)) ?? tab!;
  return {
    tabId,
    windowId: now.windowId,
    ...(groupId !== undefined ? { groupId } : {}),
    url: now.pendingUrl || now.url || params.url || "about:blank",
    ...(now.title ? { title: now.title } : {}),
  };
};

/** A new tab that does not take the focus; in a new unfocused window when none is open. */
async function openBackgroundTab(url: string): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.create({ url, active: false });
  } catch {
    const win = await chrome.windows.create({ url, focused: false });
    const tab = win?.tabs?.[0];
    if (!tab?.id) throw new ActionError("ACTION_FAILED", "Could not open a tab for the task.", true);
    return tab;
  }
}

/** Into the window's group of that title, made if missing; a failure only warns. */
async function groupTab(tab: chrome.tabs.Tab, title: string, ctx: ActionContext): Promise<number | undefined> {
  try {
    const [group] = await chrome.tabGroups.query({ title, windowId: tab.windowId });
    if (group) {
      if (tab.groupId !== group.id) await chrome.tabs.group({ groupId: group.id, tabIds: [tab.id!] });
      return group.id;
    }
    const groupId = await chrome.tabs.group({ tabIds: [tab.id!], createProperties: { windowId: tab.windowId } });
    await chrome.tabGroups.update(groupId, { title, color: "blue" });
    return groupId;
  } catch (err) {
    ctx.warnings.push(`The tab was not put in the "${title}" tab group: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

export const taskStop: ActionHandler<"task_stop"> = async (params, ctx) => {
  const record = await tasks.get(ctx.taskId);
  if (!record) return { stopped: true };
  await cdp.detach(record.tabId);
  if (params.closeTab) {
    await tasks.remove(ctx.taskId);
    await chrome.tabs.remove(record.tabId).catch(() => {});
  } else {
    // The tab stays the task's, so a later task_start with reuseExistingTab can pick it up.
    await setOverlayState(ctx.taskId, record.tabId, "idle");
  }
  return { stopped: true };
};

export const debuggerAttach: ActionHandler<"browser_debugger_attach"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  await cdp.attach(params.tabId);
  return { attached: true };
};

export const waitForLoaded: ActionHandler<"browser_wait_for_loaded"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const timeoutMs = params.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(
      () => done(new ActionError("ACTION_FAILED", `The page in tab ${params.tabId} did not finish loading within ${timeoutMs} ms.`, true)),
      timeoutMs,
    );
    const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo) => id === params.tabId && change.status === "complete" && done();
    const onRemoved = (id: number) =>
      id === params.tabId && done(new ActionError("TASK_TAB_CLOSED", `Task ${ctx.taskId}'s tab ${params.tabId} was closed while its page loaded.`));
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
    void openTab(params.tabId).then((tab) => tab?.status === "complete" && done());
  });
  return { status: "complete" };
};
