// The messages inside the extension (chrome.runtime / chrome.tabs messaging) between the service
// worker and the overlay content script. The wire to the server is src/protocol/extension.ts.
import type { OverlayState } from "../../../src/protocol/extension.ts";

/** Worker → overlay. */
export type ToOverlay =
  /** Show this state; `taskId` is the task that owns the tab. */
  | { type: "overlay_state"; state: OverlayState; taskId: string }
  /**
   * The agent is about to send input to this tab: do not count trusted input as the person's
   * until `agent_input_done` (and a short while after), or until `holdMs` pass without it.
   */
  | { type: "agent_input"; holdMs: number }
  | { type: "agent_input_done" };

/** Overlay → worker. */
export type FromOverlay =
  /** Sent when the script starts in a page: which state should this tab show? */
  | { type: "overlay_hello" }
  /** The person used the page while the agent had it. */
  | { type: "overlay_takeover" }
  | { type: "overlay_command"; command: "resume" | "stop" };

export interface OverlayHelloReply {
  state: OverlayState;
  taskId?: string;
}

/** How long after the agent's last input the person's input is still not believed to be theirs. */
export const AGENT_INPUT_GRACE_MS = 400;

/** Where the page bundle (page.js) leaves its functions in the isolated world of a tab. */
export const PAGE_GLOBAL = "__easyagentcuPage";
/** The page bundle's file in the extension. */
export const PAGE_SCRIPT = "page.js";
