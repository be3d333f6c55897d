// The agent's own input reaches the page as trusted events too (CDP Input.* from the relay,
// browser_click, browser_type). Before dispatching it, the worker tells the tab's overlay and waits
// for its answer, so those events never count as the person taking over. The worker keeps the same
// window itself: the frames inside the page (a sign-in form, a payment field in an iframe) report
// input to it, and it judges whether the agent was sending some.
import { AGENT_INPUT_GRACE_MS, type ToOverlay } from "../shared/messages.ts";

/** Enough for any one input command; the overlay forgets the window after this without `done`. */
const HOLD_MS = 10_000;
/** A page that does not answer (no overlay, frozen) does not hold the agent up longer than this. */
const ANSWER_WAIT_MS = 500;
/** Input a frame reports this long after the agent's last is still taken for the agent's: the report travels. */
const REPORT_GRACE_MS = AGENT_INPUT_GRACE_MS + 200;

/** Each tab's window of agent input as the worker sees it: open ones, and when the last closed. */
const windows = new Map<number, { open: number; heldUntil: number; closedAt: number }>();

/**
 * Runs `dispatch` inside an "agent input" window on the tab's overlay.
 * @example await withAgentInput(tabId, () => cdp.send(tabId, "Input.dispatchMouseEvent", press));
 */
export async function withAgentInput<T>(tabId: number, dispatch: () => Promise<T>): Promise<T> {
  await openAgentInput(tabId);
  try {
    return await dispatch();
  } finally {
    closeAgentInput(tabId);
  }
}

/** Opens the window: what is dispatched until {@link closeAgentInput} is the agent's. */
export async function openAgentInput(tabId: number): Promise<void> {
  const window = windows.get(tabId) ?? { open: 0, heldUntil: 0, closedAt: -Infinity };
  windows.set(tabId, { ...window, open: window.open + 1, heldUntil: Date.now() + HOLD_MS });
  await tell(tabId, { type: "agent_input", holdMs: HOLD_MS });
}

export function closeAgentInput(tabId: number): void {
  const window = windows.get(tabId);
  if (window) windows.set(tabId, { ...window, open: Math.max(0, window.open - 1), closedAt: Date.now() });
  // Once its grace has passed, a closed window is forgotten: the map holds only tabs in use now.
  setTimeout(() => {
    const now = windows.get(tabId);
    if (now && now.open === 0 && Date.now() >= now.closedAt + REPORT_GRACE_MS) windows.delete(tabId);
  }, REPORT_GRACE_MS + 100);
  void tell(tabId, { type: "agent_input_done" });
}

/** Whether input on the tab now may be the agent's: sent in a window, or just after one. */
export function agentInputLately(tabId: number): boolean {
  const window = windows.get(tabId);
  if (!window) return false;
  const now = Date.now();
  return (window.open > 0 && now < window.heldUntil) || now < window.closedAt + REPORT_GRACE_MS;
}

async function tell(tabId: number, message: ToOverlay): Promise<void> {
  const answered = chrome.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => undefined);
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, ANSWER_WAIT_MS))]);
}
