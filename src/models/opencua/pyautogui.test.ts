import { describe, expect, it } from "vitest";
import { coordinatesOf, parseOpenCUA, type CoordinateMode } from "./opencua.ts";
import { parsePyautogui } from "./pyautogui.ts";

describe("parsePyautogui", () => {
  it("reads calls with literal arguments from a python block", () => {
    const text = "## Code:\n```python\nimport pyautogui\npyautogui.click(x=0.5, y=0.25, button='left')\npyautogui.write(message=\"a, b\\n\")\npyautogui.hotkey('ctrl', 'a')\npyautogui.press(['enter'])\ncomputer.terminate(status='success', answer=None)\n```";
    const result = parsePyautogui(text);
    expect(result).toEqual({
      ok: true,
      value: [
        { fn: "pyautogui.click", args: [], kwargs: { x: 0.5, y: 0.25, button: "left" } },
        { fn: "pyautogui.write", args: [], kwargs: { message: "a, b\n" } },
        { fn: "pyautogui.hotkey", args: ["ctrl", "a"], kwargs: {} },
        { fn: "pyautogui.press", args: [["enter"]], kwargs: {} },
        { fn: "computer.terminate", args: [], kwargs: { status: "success", answer: null } },
      ],
    });
  });

  it.each([
    ["os.system('rm -rf /')", "os.system is not allowed"],
    ["pyautogui.click(x=__import__('os').getpid(), y=1)", "only literal arguments are allowed"],
    ["pyautogui.write(message=open('/etc/passwd').read())", "only literal arguments are allowed"],
    ["exec('print(1)')", "exec is not allowed"],
    ["x = 1", "not a call"],
    ["pyautogui.click(x=1, 2)", "a positional argument after a keyword argument"],
    ["pyautogui.write('unterminated)", "an unterminated string"],
    ["", "there is no pyautogui code"],
  ])("refuses %s", (code, reason) => {
    const result = parsePyautogui(code);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(reason);
  });
});

describe("parseOpenCUA", () => {
  const image = { width: 1280, height: 800 };
  const actions = (code: string, mode: CoordinateMode = "auto") => {
    const result = parseOpenCUA(`## Thought:\nthinking\n## Action:\nDo it.\n## Code:\n\`\`\`python\n${code}\n\`\`\``, image, coordinatesOf(mode));
    return result.ok ? result.value.actions.map((a) => ({ type: a.type, args: a.args })) : result.error;
  };

  it.each([
    ["pyautogui.click(x=0.15625, y=0.1625)", "auto", [{ type: "click", args: { x: 200, y: 130, button: "left" } }]],
    ["pyautogui.click(200, 130)", "auto", [{ type: "click", args: { x: 200, y: 130, button: "left" } }]],
    ["pyautogui.click(x=156.25, y=162.5)", "relative1000", [{ type: "click", args: { x: 200, y: 130, button: "left" } }]],
    ["pyautogui.click(x=10, y=10, clicks=2)", "absolute", [{ type: "double_click", args: { x: 10, y: 10 } }]],
    ["pyautogui.moveTo(10, 20)\npyautogui.dragTo(300, 400)", "auto", [{ type: "drag", args: { x: 10, y: 20, end_x: 300, end_y: 400 } }]],
    ["pyautogui.scroll(-5)", "auto", [{ type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: 500 } }]],
    ["pyautogui.write(message='Ada')\npyautogui.press('enter')", "auto", [{ type: "type", args: { text: "Ada" } }, { type: "keypress", args: { keys: ["enter"] } }]],
    ["pyautogui.hotkey('ctrl', 'l')", "auto", [{ type: "keypress", args: { keys: ["ctrl", "l"] } }]],
    ["computer.terminate(status='success', answer='Done it.')", "auto", [{ type: "done", args: { answer: "Done it." } }]],
  ] as const)("%s (%s)", (code, mode, expected) => {
    expect(actions(code, mode)).toEqual(expected);
  });

  it("reads terminate(status='failure') as the model giving up: no action, the task ends failed with its reason", () => {
    const result = parseOpenCUA("## Thought:\nNo such file here.\n## Action:\nGive up.\n## Code:\n```python\ncomputer.terminate(status='failure')\n```", image, coordinatesOf("auto"));
    expect(result).toEqual({ ok: true, value: { thought: "No such file here.", progress: "Give up.", actions: [], failure: "I could not finish the task. No such file here." } });
  });

  it("refuses a point outside the screenshot and a drag without a start", () => {
    expect(actions("pyautogui.click(x=2000, y=10)")).toContain("outside the screenshot, which is 1280×800 pixels");
    expect(actions("pyautogui.dragTo(300, 400)")).toContain("dragTo needs a moveTo before it");
  });
});
