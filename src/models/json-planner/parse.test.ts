import { describe, expect, it } from "vitest";
import { gridOf } from "../../perception/grids.ts";
import { parsePlannerAnswer, parsePointerCheck } from "./parse.ts";

const screen = { width: 1280, height: 800 };
const parse = (value: unknown) => parsePlannerAnswer(typeof value === "string" ? value : JSON.stringify(value), screen);

describe("parsePlannerAnswer", () => {
  it("accepts the PROTOCOL.md answer and fills defaults", () => {
    const result = parse({ thought: "t", progress: "p", action: { type: "click", args: { x: 412, y: 230 } } });
    expect(result).toEqual({
      ok: true,
      value: { thought: "t", progress: "p", action: { type: "click", args: { x: 412, y: 230, button: "left" }, intent: "", requires_verification: false } },
    });
  });

  it.each([
    ["numbers as strings", { type: "click", args: { x: "412", y: "230.6" } }, { x: 412, y: 231, button: "left" }],
    ["coordinate pairs", { type: "click", args: { coordinate: [10, 20] } }, { x: 10, y: 20, button: "left" }],
    ["args beside type", { type: "double_click", x: 5, y: 6 }, { x: 5, y: 6 }],
    ["a single key", { type: "keypress", args: { key: "Enter" } }, { keys: ["Enter"] }],
    ["a chord as one string", { type: "hotkey", args: { keys: "ctrl+a" } }, { keys: ["ctrl", "a"] }],
    ["a drag with end_coordinate", { type: "drag", args: { coordinate: [1, 2], end_coordinate: [3, 4] } }, { x: 1, y: 2, end_x: 3, end_y: 4 }],
    ["a scroll with one axis", { type: "scroll", args: { x: 1, y: 2, scroll_y: 300 } }, { x: 1, y: 2, scroll_x: 0, scroll_y: 300 }],
    ["an upload at a point", { type: "upload", args: { name: "cv.pdf", x: "40", y: 50 } }, { name: "cv.pdf", x: 40, y: 50 }],
    ["an upload into the open chooser, its name beside type", { type: "file_upload", name: "cv.pdf" }, { name: "cv.pdf" }],
  ])("normalises %s", (_, action, args) => {
    const result = parse({ thought: "", progress: "", action });
    expect(result.ok && result.value.action.args).toEqual(args);
  });

  it("accepts an action object given at the top level", () => {
    const result = parse({ type: "done", args: { answer: "ok" } });
    expect(result.ok && result.value.action).toMatchObject({ type: "done", args: { answer: "ok" } });
  });

  it("accepts a call of one of the page's tools, its arguments as an object or as JSON text", () => {
    const call = { type: "page_tool", args: { name: "addToCart", arguments: { sku: "A-1", quantity: 2 } } };
    expect(parse({ action: call })).toMatchObject({ ok: true, value: { action: call } });
    expect(parse({ action: { type: "page_tool", name: "addToCart", arguments: '{"sku": "A-1", "quantity": 2}' } })).toMatchObject({ ok: true, value: { action: call } });
    expect(parse({ action: { type: "page_tool", args: { name: "getCart" } } })).toMatchObject({ ok: true, value: { action: { args: { name: "getCart", arguments: {} } } } });
  });

  it.each([
    ["prose without JSON", "click the button", "the answer contains no JSON object"],
    ["broken JSON", '{"action": {"type": "click",', "the answer is not valid JSON"],
    ["an unknown type", { action: { type: "teleport", args: {} } }, "action.type"],
    ["a missing coordinate", { action: { type: "click", args: { x: 1 } } }, "action.args.y"],
    ["an upload with half a point", { action: { type: "upload", args: { name: "cv.pdf", x: 1 } } }, "give both x and y, or neither"],
    ["a negative point", { action: { type: "click", args: { x: -1, y: 5 } } }, "(-1, 5) is outside the screenshot"],
    ["a point at the right edge", { action: { type: "move", args: { x: 1280, y: 5 } } }, "x must be 0–1279"],
    ["a drag ending outside", { action: { type: "drag", args: { x: 1, y: 1, end_x: 5, end_y: 900 } } }, "(5, 900) is outside"],
    ["a wait too long", { action: { type: "wait", args: { ms: 60000 } } }, "action.args.ms"],
    ["needs_user without an answer", { action: { type: "needs_user", args: {} } }, "action.args.answer"],
    ["a page tool without a name", { action: { type: "page_tool", args: { arguments: {} } } }, "action.args.name"],
    ["a page tool's arguments that are not an object", { action: { type: "page_tool", args: { name: "getCart", arguments: "all of them" } } }, "action.args.arguments"],
  ])("rejects %s with a reason the model can act on", (_, raw, reason) => {
    const result = parse(raw);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(reason);
  });
});

describe("parsePlannerAnswer on a model's own grid", () => {
  const on = (grid: Parameters<typeof gridOf>[0], action: unknown) => parsePlannerAnswer(JSON.stringify({ thought: "", progress: "", action }), screen, gridOf(grid));

  it("maps the points onto the screenshot's pixels", () => {
    expect(on("norm1000", { type: "drag", args: { coordinate: [156, 163], end_coordinate: [500, 500] } })).toMatchObject({ ok: true, value: { action: { args: { x: 200, y: 130, end_x: 640, end_y: 400 } } } });
    expect(on("relative", { type: "click", args: { x: 0.15625, y: "0.1625" } })).toMatchObject({ ok: true, value: { action: { args: { x: 200, y: 130 } } } });
    expect(on("smart_resize", { type: "move", args: { x: 644, y: 406 } })).toMatchObject({ ok: true, value: { action: { args: { x: 640, y: 400 } } } });
  });

  it("refuses a point off the grid with its bounds", () => {
    const result = on("norm1000", { type: "click", args: { x: 1200, y: 5 } });
    expect(!result.ok && result.error).toContain("0–1000");
  });
});

describe("parsePointerCheck", () => {
  it("reads the answer, fenced or with numbers as strings", () => {
    expect(parsePointerCheck('{"on_target": false, "dx": 12, "dy": -4}')).toEqual({ ok: true, value: { on_target: false, dx: 12, dy: -4 } });
    expect(parsePointerCheck('```json\n{"on_target": "true", "dx": "0.4", "dy": 0}\n```')).toEqual({ ok: true, value: { on_target: true, dx: 0, dy: 0 } });
    expect(parsePointerCheck('{"on_target": true}')).toEqual({ ok: true, value: { on_target: true, dx: 0, dy: 0 } });
  });

  it("rejects an answer without on_target", () => {
    const result = parsePointerCheck('{"dx": 3}');
    expect(!result.ok && result.error).toContain("on_target");
  });
});
