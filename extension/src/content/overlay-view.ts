// Draws the overlay's states in a shadow root of its own, so no page style reaches it: `ongoing`
// is a thin frame and a small label that let every click through; `takeover` is a bar with Resume
// and Stop. `idle` and `hidden` leave nothing in the page.
import type { OverlayState } from "../../../src/protocol/extension.ts";

export const OVERLAY_TAG = "easyagentcu-overlay";

const STYLE = `
:host { all: initial !important; position: fixed !important; inset: 0 !important; z-index: 2147483647 !important; pointer-events: none !important; display: block !important; }
.frame { position: fixed; inset: 0; border: 3px solid #6d5dfc; box-shadow: inset 0 0 12px rgba(109, 93, 252, 0.35); pointer-events: none; box-sizing: border-box; }
.takeover .frame { border: 3px dashed #e8a317; box-shadow: none; }
.label { position: fixed; left: 50%; bottom: 10px; transform: translateX(-50%); padding: 4px 10px; border-radius: 999px;
  background: rgba(40, 30, 110, 0.85); color: #fff; font: 500 12px/1.4 system-ui, sans-serif; pointer-events: none; white-space: nowrap; }
.bar { position: fixed; left: 50%; top: 10px; transform: translateX(-50%); display: flex; gap: 8px; align-items: center; padding: 8px 10px 8px 14px;
  border-radius: 10px; background: #1f2330; color: #fff; font: 13px/1.4 system-ui, sans-serif; box-shadow: 0 4px 18px rgba(0,0,0,0.3); pointer-events: auto; }
button { font: 600 13px system-ui, sans-serif; border: 0; border-radius: 6px; padding: 6px 12px; cursor: pointer; }
button.resume { background: #6d5dfc; color: #fff; }
button.stop { background: #3a3f4f; color: #fff; }
button:disabled { opacity: 0.6; cursor: default; }
`;

export interface OverlayView {
  show(state: OverlayState): void;
}

export function createOverlayView(onCommand: (command: "resume" | "stop") => void): OverlayView {
  let host: HTMLElement | undefined;
  let shown: OverlayState = "idle";
  // A page that rewrites its document (single-page apps) may throw the host out: put it back.
  const keeper = new MutationObserver(() => {
    if (host && !host.isConnected) mount();
  });

  function mount() {
    const parent = document.documentElement;
    if (!parent || !host) return;
    parent.appendChild(host);
    keeper.disconnect();
    keeper.observe(parent, { childList: true });
  }

  function render(state: OverlayState) {
    host ??= document.createElement(OVERLAY_TAG);
    const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
    host.setAttribute("data-state", state);
    root.innerHTML = "";
    const style = document.createElement("style");
    style.textContent = STYLE;
    const wrap = document.createElement("div");
    wrap.className = state;
    const frame = document.createElement("div");
    frame.className = "frame";
    wrap.append(frame);
    if (state === "ongoing") {
      wrap.append(el("div", "label", "EasyAgentCU is working in this tab · using the page takes over"));
    } else {
      const bar = el("div", "bar", "You have control; the agent is paused.");
      const resume = el("button", "resume", "Resume") as HTMLButtonElement;
      const stop = el("button", "stop", "Stop") as HTMLButtonElement;
      const press = (command: "resume" | "stop", button: HTMLButtonElement, label: string) => (event: Event) => {
        // A page script cannot press these for the person.
        if (!event.isTrusted) return;
        resume.disabled = stop.disabled = true;
        button.textContent = label;
        onCommand(command);
      };
      resume.addEventListener("click", press("resume", resume, "Resuming…"));
      stop.addEventListener("click", press("stop", stop, "Stopping…"));
      bar.append(resume, stop);
      wrap.append(bar);
    }
    root.append(style, wrap);
    if (!host.isConnected) mount();
  }

  return {
    show(state) {
      if (state === shown) return;
      shown = state;
      if (state === "ongoing" || state === "takeover") {
        if (document.documentElement) render(state);
        else document.addEventListener("DOMContentLoaded", () => shown === state && render(state), { once: true });
      } else {
        keeper.disconnect();
        host?.remove();
      }
    },
  };
}

function el(tag: string, className: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}
