import { describe, expect, it } from "vitest";
import { uitarsGrid } from "../dialects.ts";
import { parseUITars } from "./uitars.ts";

const image = { width: 1280, height: 800 };
const action = (text: string, version: "1.0" | "1.5" = "1.0") => {
  const result = parseUITars(text, image, uitarsGrid(version));
  return result.ok ? result.value.action : result.error;
};

describe("parseUITars", () => {
  it("reads 0–1000 coordinates of UI-TARS 1.0 into image pixels", () => {
    expect(action("Thought: Press it.\nAction: click(start_box='(156,162)')")).toMatchObject({
      type: "click",
      args: { x: 200, y: 130, button: "left" },
      intent: "Press it.",
    });
  });

  it("reads absolute coordinates of UI-TARS 1.5, given in the model's resized image", () => {
    const a = action("Thought: Press it.\nAction: click(start_box='<|box_start|>(200,130)<|box_end|>')", "1.5");
    expect(a).toMatchObject({ type: "click" });
    const { x, y } = (a as { args: { x: number; y: number } }).args;
    expect(Math.abs(x - 200)).toBeLessThanOrEqual(2);
    expect(Math.abs(y - 130)).toBeLessThanOrEqual(2);
  });

  it.each([
    ["left_double(start_box='(500,500)')", { type: "double_click", args: { x: 640, y: 400 } }],
    ["right_single(start_box='(500,500)')", { type: "right_click", args: { x: 640, y: 400 } }],
    ["drag(start_box='(0,0)', end_box='(500,500)')", { type: "drag", args: { x: 0, y: 0, end_x: 640, end_y: 400 } }],
    ["hotkey(key='ctrl a')", { type: "keypress", args: { keys: ["ctrl", "a"] } }],
    ["type(content='Ada\\n')", { type: "type", args: { text: "Ada\n" } }],
    ["scroll(start_box='(500,500)', direction='up')", { type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: -500 } }],
    ["wait()", { type: "wait", args: { ms: 5000 } }],
    ["finished(content='All done.')", { type: "done", args: { answer: "All done." } }],
    ["call_user()", { type: "needs_user", args: { answer: "Log in first." } }],
  ])("maps %s", (line, expected) => {
    expect(action(`Thought: Log in first.\nAction: ${line}`)).toMatchObject(expected);
  });

  it("rejects an answer without an action it knows", () => {
    expect(action("I think I should click.")).toContain("no Action");
    expect(action("Thought: x\nAction: teleport(start_box='(1,1)')")).toContain("teleport is not one of the listed actions");
  });
});
