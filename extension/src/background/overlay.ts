// The worker's side of the overlay (§2.2): keeps each task tab's state, pushes it to the content
// script of every frame of the tab (injecting it where the page predates the extension), answers
// a script that starts in a freshly navigated page or frame, and turns what the person does — in
// the page or in any frame inside it — into `takeover`, and the overlay's buttons into
// `overlay_command`, for the server.
import type { ExtensionMessage, OverlayState } from "../../../src/protocol/extension.ts";
import type { FromOverlay, OverlayHelloReply, ToOverlay } from "../shared/messages.ts";
import { agentInputLately } from "./agent-input.ts";
import { tasks } from "./tasks.ts";

export const OVERLAY_SCRIPT = "overlay.js";

/** The server set a task's state: remember it and show it on the task's tab (only there). */
export async function setOverlayState(taskId: string, tabId: number, state: OverlayState): Promise<void> {
  const record = await tasks.get(taskId);
  if (!record || record.tabId !== tabId) return;
  await tasks.update(taskId, { overlay: state });
  await pushState(tabId, { type: "overlay_state", state, taskId });
}

/** A tab that stopped being the task's goes back to showing nothing. */
export async function clearOverlay(tabId: number, taskId: string): Promise<void> {
  await chrome.tabs.sendMessage(tabId, { type: "overlay_state", state: "idle", taskId } satisfies ToOverlay).catch(() => {});
}

async function pushState(tabId: number, message: ToOverlay): Promise<void> {
  try {
    await chrome.tabs.sendMessage(tabId, message, { frameId: 0 });
  } catch {
    // No script in the page (opened before the extension was loaded, or still loading): put one
    // in it and in each of its frames; each asks for its state when it starts. Pages that forbid
    // scripts stay without one.
    await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [OVERLAY_SCRIPT] }).catch(() => {});
    return;
  }
  // The frames inside the page keep the state too, to report the person's input in them.
  await chrome.tabs.sendMessage(tabId, message).catch(() => {});
}

/** Handles the overlay's messages; `sendSoon` reaches the server now or once connected. */
export function listenToOverlays(sendSoon: (message: ExtensionMessage) => void): void {
  chrome.runtime.onMessage.addListener((message: FromOverlay, sender, reply: (answer: OverlayHelloReply | undefined) => void) => {
    const tabId = sender.tab?.id;
    if (tabId === undefined || sender.id !== chrome.runtime.id) return false;
    // The overlay's buttons are drawn in the page itself, never in a frame inside it.
    if (message.type === "overlay_command" && sender.frameId !== 0) return false;
    void answer(message, tabId, sender.frameId ?? 0, sendSoon).then(reply, () => reply(undefined));
    return true;
  });
}

async function answer(message: FromOverlay, tabId: number, frameId: number, sendSoon: (message: ExtensionMessage) => void): Promise<OverlayHelloReply | undefined> {
  const owner = await tasks.byTab(tabId);
  switch (message.type) {
    case "overlay_hello":
      return owner ? { state: owner.record.overlay, taskId: owner.taskId } : { state: "idle" };
    case "overlay_takeover": {
      // Once per run: only a tab the agent holds (ongoing) can be taken over. The page's own overlay
      // knows the agent's input windows; for a frame inside it, the worker judges.
      if (owner?.record.overlay !== "ongoing" || (frameId !== 0 && agentInputLately(tabId))) return undefined;
      await tasks.update(owner.taskId, { overlay: "takeover" });
      sendSoon({ type: "takeover", taskId: owner.taskId });
      // Every frame learns it: the page's overlay shows it when a frame saw it, and the frames stop reporting.
      await pushState(tabId, { type: "overlay_state", state: "takeover", taskId: owner.taskId });
      return { state: "takeover", taskId: owner.taskId };
    }
    case "overlay_command":
      if (!owner || (message.command !== "resume" && message.command !== "stop")) return undefined;
      sendSoon({ type: "overlay_command", taskId: owner.taskId, command: message.command });
      return undefined;
    default:
      return undefined;
  }
}
