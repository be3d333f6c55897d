import { describe, expect, it } from "vitest";
import { gridOf } from "../../perception/grids.ts";
import { parseGlm } from "./parse.ts";

const image = { width: 1280, height: 800 };
const parse = (text: string) => parseGlm(text, image, gridOf("norm999"));
const answer = (call: string, memory = "[]") => `I can see the form. I will act on it. <|begin_of_box|>${call}<|end_of_box|>\nMemory:\n${memory}`;
const action = (call: string) => {
  const result = parse(answer(call));
  return result.ok ? (result.value.action ? { type: result.value.action.type, args: result.value.action.args } : null) : result.error;
};

describe("parseGlm", () => {
  it("reads the explanation, the boxed call in thousandths of a non-square image, and the memory", () => {
    expect(parse(`<think>The button is top left.</think>${answer("left_click(start_box='[156, 163]', element_info='Press me button')", '[{"name": "Ada"}]')}`)).toEqual({
      ok: true,
      value: {
        explanation: "I can see the form. I will act on it.",
        call: "left_click(start_box='[156, 163]', element_info='Press me button')",
        memory: '[{"name": "Ada"}]',
        action: { type: "click", args: { x: 200, y: 130, button: "left" }, intent: "Press me button", requires_verification: false },
      },
    });
  });

  it("reads a call written without the box tokens", () => {
    const result = parse("Typing the name.\ntype(content='Ada')\nMemory:\n[]");
    expect(result.ok && result.value.action).toMatchObject({ type: "type", args: { text: "Ada" } });
  });

  it.each([
    ["right_click(start_box='[500,500]')", { type: "right_click", args: { x: 640, y: 400 } }],
    ["middle_click(start_box='[500,500]')", { type: "click", args: { x: 640, y: 400, button: "middle" } }],
    ["hover(start_box='[999,999]')", { type: "move", args: { x: 1279, y: 799 } }],
    ["left_double_click(start_box='[500,500]')", { type: "double_click", args: { x: 640, y: 400 } }],
    ["left_drag(start_box='[0,0]', end_box='[500,500]')", { type: "drag", args: { x: 0, y: 0, end_x: 640, end_y: 400 } }],
    ["key(keys='ctrl+a')", { type: "keypress", args: { keys: ["ctrl", "a"] } }],
    ["scroll(start_box='[500,500]', direction='down', step=3)", { type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: 300 } }],
    ["scroll(start_box='[500,500]', direction='up')", { type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: -500 } }],
    ["WAIT()", { type: "wait", args: { ms: 5000 } }],
    ["DONE()", { type: "done", args: { answer: "I can see the form. I will act on it." } }],
    ["ASK_USER(content='Please sign in.')", { type: "needs_user", args: { answer: "Please sign in." } }],
    ["FAIL()", null],
  ])("maps %s", (call, expected) => {
    expect(action(call)).toEqual(expected);
  });

  it.each([
    ["no action", "I am not sure what to do.\nMemory:\n[]", "there is no action"],
    ["a function not listed", answer("os.system('reboot')"), "there is no action"],
    ["a point past 999", answer("left_click(start_box='[1000, 10]')"), "0–999"],
    ["a click without a box", answer("left_click(element_info='x')"), "left_click needs start_box"],
    ["an argument that is not a literal", answer("type(content=open('/etc/passwd').read())"), "type:"],
    ["a sideways scroll", answer("scroll(start_box='[1,1]', direction='left')"), "'up' or 'down'"],
  ])("refuses %s with a reason the model can act on", (_, text, reason) => {
    const result = parse(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(reason);
  });
});
