// The agent's own input reaches the page as trusted events too (CDP Input.* from the relay,
// browser_click, browser_type). Before dispatching it, the worker tells the tab's overlay and waits
// for its answer, so those events never count as the person taking over.
import type { ToOverlay } from "../shared/messages.ts";

/** Enough for any one input command; the overlay forgets the window after this without `done`. */
const HOLD_MS = 10_000;
/** A page that does not answer (no overlay, frozen) does not hold the agent up longer than this. */
const ANSWER_WAIT_MS = 500;

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
  await tell(tabId, { type: "agent_input", holdMs: HOLD_MS });
}

export function closeAgentInput(tabId: number): void {
  void tell(tabId, { type: "agent_input_done" });
}

async function tell(tabId: number, message: ToOverlay): Promise<void> {
  const answered = chrome.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => undefined);
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, ANSWER_WAIT_MS))]);
}
