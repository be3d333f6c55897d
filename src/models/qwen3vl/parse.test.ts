import { describe, expect, it } from "vitest";
import { gridOf } from "../../perception/grids.ts";
import { parseQwen3VL } from "./parse.ts";

const image = { width: 1280, height: 800 };
const grid = gridOf("norm1000");
const call = (args: Record<string, unknown>) => `<tool_call>\n${JSON.stringify({ name: "computer_use", arguments: args })}\n</tool_call>`;
const answer = (...calls: Record<string, unknown>[]) => `Thought: The form is open.\nAction: "Fill it in."\n${calls.map(call).join("\n")}`;
const parse = (text: string, pointer: { x: number; y: number } | null = null) => parseQwen3VL(text, image, grid, pointer);
const actions = (...calls: Record<string, unknown>[]) => {
  const result = parse(answer(...calls));
  return result.ok ? result.value.actions.map((a) => ({ type: a.type, args: a.args })) : result.error;
};

describe("parseQwen3VL", () => {
  it("reads Thought, Action and the call, its point on the 0–1000 grid of a non-square image", () => {
    const result = parse(answer({ action: "left_click", coordinate: [156, 162] }));
    expect(result).toMatchObject({
      ok: true,
      value: { thought: "The form is open.", progress: "Fill it in.", actions: [{ type: "click", args: { x: 200, y: 130, button: "left" }, intent: "Fill it in." }], failure: null, pointer: { x: 200, y: 130 } },
    });
  });

  it.each([
    [{ action: "right_click", coordinate: [500, 500] }, { type: "right_click", args: { x: 640, y: 400 } }],
    [{ action: "middle_click", coordinate: [500, 500] }, { type: "click", args: { x: 640, y: 400, button: "middle" } }],
    [{ action: "double_click", coordinate: [500, 500] }, { type: "double_click", args: { x: 640, y: 400 } }],
    [{ action: "triple_click", coordinate: [500, 500] }, { type: "triple_click", args: { x: 640, y: 400 } }],
    [{ action: "mouse_move", coordinate: [1000, 1000] }, { type: "move", args: { x: 1279, y: 799 } }],
    [{ action: "key", keys: ["ctrl", "a"] }, { type: "keypress", args: { keys: ["ctrl", "a"] } }],
    [{ action: "type", text: "Ada" }, { type: "type", args: { text: "Ada" } }],
    [{ action: "scroll", coordinate: [500, 500], pixels: -3 }, { type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: 300 } }],
    [{ action: "hscroll", pixels: 2 }, { type: "scroll", args: { x: 640, y: 400, scroll_x: 200, scroll_y: 0 } }],
    [{ action: "wait", time: 2 }, { type: "wait", args: { ms: 2000 } }],
    [{ action: "answer", text: "It costs **€12**." }, { type: "done", args: { answer: "It costs **€12**." } }],
    [{ action: "terminate", status: "success" }, { type: "done", args: { answer: "The form is open." } }],
    [{ action: "ask_user", text: "Please sign in." }, { type: "needs_user", args: { answer: "Please sign in." } }],
  ])("maps %o", (args, expected) => {
    expect(actions(args)).toEqual([expected]);
  });

  it("drags from where the pointer is, within the answer or from the last one", () => {
    expect(actions({ action: "mouse_move", coordinate: [100, 100] }, { action: "left_click_drag", coordinate: [500, 500] })).toEqual([
      { type: "move", args: { x: 128, y: 80 } },
      { type: "drag", args: { x: 128, y: 80, end_x: 640, end_y: 400 } },
    ]);
    const later = parse(answer({ action: "left_click_drag", coordinate: [500, 500] }), { x: 10, y: 20 });
    expect(later.ok && later.value.actions[0]?.args).toEqual({ x: 10, y: 20, end_x: 640, end_y: 400 });
  });

  it("reads a call of page_tool as a call of one of the page's own tools, in order with the clicks", () => {
    const pageCall = `<tool_call>\n${JSON.stringify({ name: "page_tool", arguments: { name: "addToCart", arguments: { sku: "A-1", quantity: 2 } } })}\n</tool_call>`;
    const result = parse(`Thought: The shop has a tool.\nAction: "Add to the cart."\n${pageCall}\n${call({ action: "answer", text: "Added." })}`);
    expect(result.ok && result.value.actions.map((a) => ({ type: a.type, args: a.args }))).toEqual([
      { type: "page_tool", args: { name: "addToCart", arguments: { sku: "A-1", quantity: 2 } } },
      { type: "done", args: { answer: "Added." } },
    ]);
  });

  it("reads terminate with failure as giving up", () => {
    expect(parse(answer({ action: "terminate", status: "failure" }))).toMatchObject({ ok: true, value: { actions: [], failure: "I could not finish the task. The form is open." } });
  });

  it.each([
    ["prose without a call", "Thought: I will click the button.", "no <tool_call>"],
    ["broken JSON", "<tool_call>\n{\"name\": \"computer_use\", \"arguments\": {\"action\": \n</tool_call>", "not valid JSON"],
    ["another function", `<tool_call>${JSON.stringify({ name: "python", arguments: { action: "left_click" } })}</tool_call>`, '"computer_use"'],
    ["an action not listed", call({ action: "run_shell", text: "rm -rf /" }), "action must be one of"],
    ["a click without a point", call({ action: "left_click" }), "left_click needs a coordinate"],
    ["a point off the grid", call({ action: "left_click", coordinate: [1200, 10] }), "outside the screenshot"],
    ["a drag without a start", call({ action: "left_click_drag", coordinate: [5, 5] }), "move it there first"],
    ["a key without keys", call({ action: "key", keys: [] }), "key needs keys"],
    ["a page tool without a name", `<tool_call>${JSON.stringify({ name: "page_tool", arguments: { arguments: {} } })}</tool_call>`, "page_tool needs the name"],
  ])("refuses %s with a reason the model can act on", (_, text, reason) => {
    const result = parse(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(reason);
  });
});
