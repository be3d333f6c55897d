import { describe, expect, it } from "vitest";
import type { UiElement } from "../../perception/elements.ts";
import { parseSom } from "./som-planner.ts";

const elements: UiElement[] = [{ id: 1, kind: "button", label: "Save", box: { x: 100, y: 100, width: 80, height: 40 } }];
const image = { width: 1280, height: 800 };
const parsed = (answer: Record<string, unknown>) => {
  const result = parseSom(JSON.stringify({ thought: "t", progress: "p", ...answer }), elements, image);
  return result.ok ? { actions: result.value.actions.map((a) => ({ type: a.type, args: a.args })), failure: result.value.failure } : result.error;
};

describe("the Set-of-Mark planner's answers (seed 002 §3.1)", () => {
  it.each([
    [{ action: "hotkey", keys: ["ctrl", "s"] }, [{ type: "keypress", args: { keys: ["ctrl", "s"] } }]],
    [{ action: "hotkey", key: "ctrl+a" }, [{ type: "keypress", args: { keys: ["ctrl", "a"] } }]],
    [{ action: "press", key: "enter" }, [{ type: "keypress", args: { keys: ["enter"] } }]],
    [{ action: "scroll", direction: "down" }, [{ type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: 300 } }]],
    [{ action: "scroll", direction: "up", amount: 3, element_id: 1 }, [{ type: "scroll", args: { x: 140, y: 120, scroll_x: 0, scroll_y: -300 } }]],
    [{ action: "needs_user", answer: "Please sign in." }, [{ type: "needs_user", args: { answer: "Please sign in." } }]],
  ])("%j", (answer, actions) => {
    expect(parsed(answer)).toEqual({ actions, failure: null });
  });

  it("types into an element by clicking it first, a click that only puts the focus there", () => {
    const typed = parseSom(JSON.stringify({ thought: "t", progress: "p", action: "type", element_id: 1, text: "Ada" }), elements, image);
    expect(typed.ok && typed.value).toMatchObject({ actions: [{ type: "click", args: { x: 140, y: 120 } }, { type: "type", args: { text: "Ada" } }], focusFirst: true });
    const focused = parseSom(JSON.stringify({ thought: "t", progress: "p", action: "type", text: "Ada" }), elements, image);
    expect(focused.ok && focused.value).toMatchObject({ actions: [{ type: "type", args: { text: "Ada" } }], focusFirst: false });
  });

  it("calls one of the page's own tools by name, and sends a call without one back to the model", () => {
    expect(parsed({ action: "page_tool", name: "addToCart", arguments: { sku: "A-1", quantity: 2 } })).toEqual({
      actions: [{ type: "page_tool", args: { name: "addToCart", arguments: { sku: "A-1", quantity: 2 } } }],
      failure: null,
    });
    expect(parsed({ action: "page_tool", arguments: {} })).toContain("page_tool needs the name");
  });

  it("takes fail as the end of the task, failed, with the model's reason", () => {
    expect(parsed({ action: "fail", answer: "There is no Save button on this screen." })).toEqual({ actions: [], failure: "There is no Save button on this screen." });
  });

  it("sends a scroll amount that is no number of notches back to the model", () => {
    expect(parsed({ action: "scroll", direction: "down", amount: 0 })).toContain("amount must be a whole number of wheel notches");
  });
});
