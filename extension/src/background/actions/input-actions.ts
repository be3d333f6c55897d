// Clicking and typing on the task's tab (§4.2 C, §4.4): by default through CDP input events on
// the held tab, which the page sees as trusted and which need no focus; where the debugger is not
// attached or CDP fails, through the DOM with a warning (§4.6) — unless CDP was asked for by name,
// then CDP_UNAVAILABLE. The overlay is told first, so the agent's input is not the person's.
import { CLICK_ID_ATTR } from "../../../../src/protocol/extension.ts";
import { ActionError } from "../action-error.ts";
import { withAgentInput } from "../agent-input.ts";
import * as cdp from "../debugger.ts";
import { callPage } from "../page-call.ts";
import { taskTab, tasks } from "../tasks.ts";
import type { ActionContext, ActionHandler } from "./context.ts";

async function target(taskId: string, params: { clickId?: number; xpath?: string }) {
  const attr = (await tasks.get(taskId))?.clickAttr ?? CLICK_ID_ATTR;
  return { attr, ...(params.clickId !== undefined ? { clickId: params.clickId } : {}), ...(params.xpath !== undefined ? { xpath: params.xpath } : {}) };
}

async function requireDebugger(tabId: number): Promise<void> {
  if (!(await cdp.isAttached(tabId))) throw new ActionError("CDP_UNAVAILABLE", `The debugger is not attached to tab ${tabId} (run browser_debugger_attach first).`);
}

/** Whether to go on through the DOM after CDP failed before it did anything. */
function fallBack(err: unknown, explicit: boolean, ctx: ActionContext, what: string): void {
  if (!(err instanceof ActionError) || err.code !== "CDP_UNAVAILABLE" || explicit) throw err;
  ctx.warnings.push(`${what} through CDP was not possible (${err.message}); it was done through the DOM instead, which pages can tell apart from a person's input.`);
}

export const click: ActionHandler<"browser_click"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  if (params.clickId === undefined && params.xpath === undefined) throw new ActionError("SCHEMA_VALIDATION_FAILED", "browser_click needs a clickId or an xpath.");
  const where = await target(ctx.taskId, params);
  if (params.strategy !== "dom_click") {
    let pressed = false;
    try {
      await requireDebugger(params.tabId);
      const at = await callPage(params.tabId, "locate", where);
      if (at.coveredBy) ctx.warnings.push(`The <${at.tag}> element's centre is covered by ${at.coveredBy}; the click landed on what is on top.`);
      const mouse = { x: at.x, y: at.y, button: "left", clickCount: 1 };
      await withAgentInput(params.tabId, async () => {
        await cdp.send(params.tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x: at.x, y: at.y, button: "none" });
        await cdp.send(params.tabId, "Input.dispatchMouseEvent", { type: "mousePressed", buttons: 1, ...mouse });
        pressed = true;
        await cdp.send(params.tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", buttons: 0, ...mouse });
      });
      return { clicked: true, strategy: "cdp_mouse" };
    } catch (err) {
      // Half a click is not repaired by a DOM click on top of it.
      if (pressed) throw err;
      fallBack(err, params.strategy === "cdp_mouse", ctx, "The click");
    }
  }
  await callPage(params.tabId, "domClick", where);
  return { clicked: true, strategy: "dom_click" };
};

export const type: ActionHandler<"browser_type"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const where = await target(ctx.taskId, params);
  const submit = params.submit ?? false;
  if (params.strategy !== "dom_input") {
    let started = false;
    try {
      await requireDebugger(params.tabId);
      await callPage(params.tabId, "focusForTyping", where);
      await withAgentInput(params.tabId, async () => {
        if (params.text) {
          await cdp.send(params.tabId, "Input.insertText", { text: params.text });
          started = true;
        }
        if (submit) {
          const enter = { key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 };
          await cdp.send(params.tabId, "Input.dispatchKeyEvent", { type: "keyDown", text: "\r", unmodifiedText: "\r", ...enter });
          started = true;
          await cdp.send(params.tabId, "Input.dispatchKeyEvent", { type: "keyUp", ...enter });
        }
      });
      return { typed: true, strategy: "cdp_key" };
    } catch (err) {
      // Text typed once must not be typed again by the fallback.
      if (started) throw err;
      fallBack(err, params.strategy === "cdp_key", ctx, "Typing");
    }
  }
  await callPage(params.tabId, "domInput", { ...where, text: params.text, submit });
  return { typed: true, strategy: "dom_input" };
};
