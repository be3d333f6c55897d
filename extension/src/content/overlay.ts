// The overlay content script (overlay.js, §2.2), in the page and in every frame inside it: keeps
// the tab's state — idle, hidden, ongoing, takeover — as the worker sets it, and while `ongoing`
// watches for the person's own input (trusted pointer, key and wheel events, caught first) to
// raise a takeover, once. The agent's own input is trusted too: the worker announces it to the page
// first, and it is not counted; a frame reports all it sees, and the worker judges. Only the page
// draws the overlay.
import type { OverlayState } from "../../../src/protocol/extension.ts";
import { AGENT_INPUT_GRACE_MS, type FromOverlay, type OverlayHelloReply, type ToOverlay } from "../shared/messages.ts";
import { createOverlayView, OVERLAY_TAG } from "./overlay-view.ts";

const INSTALLED = "__easyagentcuOverlay";

// The worker may inject this file into a page that already has it.
if (!(globalThis as Record<string, unknown>)[INSTALLED]) {
  (globalThis as Record<string, unknown>)[INSTALLED] = true;
  start();
}

function start() {
  let state: OverlayState = "idle";
  let agentDepth = 0;
  let agentHoldUntil = 0;
  let agentGraceUntil = 0;

  const tell = async (message: FromOverlay): Promise<OverlayHelloReply | undefined> => {
    try {
      return (await chrome.runtime.sendMessage(message)) as OverlayHelloReply | undefined;
    } catch {
      // The extension was reloaded or removed under this page: nobody to tell.
      return undefined;
    }
  };
  const inPage = window === window.top;
  const view = inPage ? createOverlayView((command) => void tell({ type: "overlay_command", command })) : null;
  let told = false;
  /** A frame's report of input is on its way to the worker. */
  let reporting = false;
  const setState = (next: OverlayState) => {
    state = next;
    view?.show(next);
  };

  const agentActive = () => {
    const now = performance.now();
    if (agentDepth > 0 && now < agentHoldUntil) return true;
    agentDepth = 0;
    return now < agentGraceUntil;
  };

  const onInput = (event: Event) => {
    if (!event.isTrusted || state !== "ongoing" || agentActive()) return;
    if (event.composedPath().some((node) => node instanceof Element && node.localName === OVERLAY_TAG)) return;
    told = true;
    if (inPage) {
      setState("takeover");
      void tell({ type: "overlay_takeover" });
      return;
    }
    // The worker decides whether it was the agent's: it says takeover to every frame if not.
    if (reporting) return;
    reporting = true;
    void tell({ type: "overlay_takeover" }).then((answer) => {
      reporting = false;
      if (answer) setState(answer.state);
    });
  };
  for (const type of ["pointerdown", "keydown", "wheel"]) window.addEventListener(type, onInput, { capture: true, passive: true });

  chrome.runtime.onMessage.addListener((message: ToOverlay, sender, reply: (ok: boolean) => void) => {
    if (sender.id !== chrome.runtime.id) return false;
    switch (message.type) {
      case "overlay_state":
        told = true;
        setState(message.state);
        break;
      case "agent_input":
        agentDepth++;
        agentHoldUntil = performance.now() + message.holdMs;
        break;
      case "agent_input_done":
        agentDepth = Math.max(0, agentDepth - 1);
        if (agentDepth === 0) agentGraceUntil = performance.now() + AGENT_INPUT_GRACE_MS;
        break;
      default:
        return false;
    }
    reply(true);
    return false;
  });

  // A new document in a task's tab shows the task's state again.
  void tell({ type: "overlay_hello" }).then((answer) => answer && !told && setState(answer.state));
}
