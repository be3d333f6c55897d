// Gemini's dialect translated: its 0–999 grid onto the image's pixels and back, every predefined
// function as our actions, the tool a desktop gets, and which answers in words ask the person.
import { describe, expect, it } from "vitest";
import { translate, type Translated } from "./actions.ts";
import { computerUseTool } from "./computer-use.ts";

const image = { width: 1280, height: 800 };
const acts = (t: Translated) => (t.kind === "act" ? t.actions.map((a) => ({ type: a.type, args: a.args })) : t);

describe("Gemini's predefined functions", () => {
  it("clicks, hovers and drags at grid points", () => {
    expect(acts(translate("click_at", { x: 500, y: 500 }, image, ""))).toEqual([{ type: "click", args: { x: 640, y: 400, button: "left" } }]);
    expect(acts(translate("hover_at", { x: 250, y: 250 }, image, ""))).toEqual([{ type: "move", args: { x: 320, y: 200 } }]);
    expect(acts(translate("drag_and_drop", { x: 0, y: 0, destination_x: 500, destination_y: 250 }, image, ""))).toEqual([
      { type: "drag", args: { x: 0, y: 0, end_x: 640, end_y: 200 } },
    ]);
  });

  it("types at a point: a focusing click, clearing unless told not to, the text, and Enter when asked", () => {
    const full = translate("type_text_at", { x: 500, y: 500, text: "red shoes", press_enter: true }, image, "");
    expect(full).toMatchObject({ kind: "act", focusFirst: true });
    expect(acts(full)).toEqual([
      { type: "click", args: { x: 640, y: 400, button: "left" } },
      { type: "keypress", args: { keys: ["Control", "a"] } },
      { type: "keypress", args: { keys: ["Delete"] } },
      { type: "type", args: { text: "red shoes" } },
      { type: "keypress", args: { keys: ["Enter"] } },
    ]);
    expect(acts(translate("type_text_at", { x: 500, y: 500, text: "more", clear_before_typing: false }, image, ""))).toEqual([
      { type: "click", args: { x: 640, y: 400, button: "left" } },
      { type: "type", args: { text: "more" } },
    ]);
  });

  it("scrolls the document by a page or sideways by half the screen, and at a point by a magnitude on the grid", () => {
    expect(acts(translate("scroll_document", { direction: "down" }, image, ""))).toEqual([{ type: "keypress", args: { keys: ["PageDown"] } }]);
    expect(acts(translate("scroll_document", { direction: "up" }, image, ""))).toEqual([{ type: "keypress", args: { keys: ["PageUp"] } }]);
    expect(acts(translate("scroll_document", { direction: "right" }, image, ""))).toEqual([{ type: "scroll", args: { x: 640, y: 400, scroll_x: 640, scroll_y: 0 } }]);
    expect(acts(translate("scroll_at", { x: 500, y: 500, direction: "down", magnitude: 500 }, image, ""))).toEqual([
      { type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: 400 } },
    ]);
    expect(acts(translate("scroll_at", { x: 500, y: 500, direction: "left" }, image, ""))).toEqual([{ type: "scroll", args: { x: 640, y: 400, scroll_x: -1024, scroll_y: 0 } }]);
  });

  it("presses key combinations, navigates, goes back and forward, searches and waits", () => {
    expect(acts(translate("key_combination", { keys: "control+shift+t" }, image, ""))).toEqual([{ type: "keypress", args: { keys: ["Control", "Shift", "t"] } }]);
    expect(acts(translate("navigate", { url: "https://example.com/" }, image, ""))).toEqual([{ type: "navigate", args: { url: "https://example.com/" } }]);
    expect(acts(translate("go_back", {}, image, ""))).toEqual([{ type: "keypress", args: { keys: ["Alt", "ArrowLeft"] } }]);
    expect(acts(translate("go_forward", {}, image, ""))).toEqual([{ type: "keypress", args: { keys: ["Alt", "ArrowRight"] } }]);
    expect(acts(translate("search", {}, image, ""))).toEqual([{ type: "navigate", args: { url: "https://www.google.com" } }]);
    expect(acts(translate("wait_5_seconds", {}, image, ""))).toEqual([{ type: "wait", args: { ms: 5000 } }]);
    expect(translate("open_web_browser", {}, image, "")).toEqual({ kind: "screenshot" });
  });

  it("refuses what it cannot carry out, with the reason", () => {
    expect(translate("click_at", { x: 1000, y: 5 }, image, "")).toEqual({ kind: "refuse", reason: "(1000, 5) is off the 0–999 grid" });
    expect(translate("click_at", { x: "5" }, image, "")).toEqual({ kind: "refuse", reason: "x and y must be numbers" });
    expect(translate("scroll_at", { x: 1, y: 1, direction: "sideways" }, image, "")).toMatchObject({ kind: "refuse" });
    expect(translate("open_file", {}, image, "")).toEqual({ kind: "refuse", reason: 'the function "open_file" is not supported here' });
  });
});

describe("Gemini 3.5's functions (the 2026 set)", () => {
  const t = (name: string, args: Record<string, unknown>) => translate(name, { intent: "", ...args }, image, "", "2026");

  it("clicks with every button, moves and drags at grid points", () => {
    expect(acts(t("click", { x: 500, y: 500 }))).toEqual([{ type: "click", args: { x: 640, y: 400, button: "left" } }]);
    expect(acts(t("middle_click", { x: 500, y: 500 }))).toEqual([{ type: "click", args: { x: 640, y: 400, button: "middle" } }]);
    expect(acts(t("right_click", { x: 0, y: 0 }))).toEqual([{ type: "right_click", args: { x: 0, y: 0 } }]);
    expect(acts(t("double_click", { x: 250, y: 250 }))).toEqual([{ type: "double_click", args: { x: 320, y: 200 } }]);
    expect(acts(t("triple_click", { x: 250, y: 250 }))).toEqual([{ type: "triple_click", args: { x: 320, y: 200 } }]);
    expect(acts(t("move", { x: 999, y: 999 }))).toEqual([{ type: "move", args: { x: 1279, y: 799 } }]);
    expect(acts(t("drag_and_drop", { start_x: 0, start_y: 0, end_x: 500, end_y: 250 }))).toEqual([{ type: "drag", args: { x: 0, y: 0, end_x: 640, end_y: 200 } }]);
    expect(t("mouse_down", { x: 500, y: 500 })).toEqual({ kind: "press", at: { x: 640, y: 400 } });
    expect(t("mouse_up", { x: 250, y: 250 })).toEqual({ kind: "release", at: { x: 320, y: 200 } });
  });

  it("types where the caret is, with Enter only when asked, and presses keys and hotkeys", () => {
    expect(acts(t("type", { text: "red shoes" }))).toEqual([{ type: "type", args: { text: "red shoes" } }]);
    expect(acts(t("type", { text: "red shoes", press_enter: true }))).toEqual([
      { type: "type", args: { text: "red shoes" } },
      { type: "keypress", args: { keys: ["Enter"] } },
    ]);
    expect(acts(t("press_key", { key: "enter" }))).toEqual([{ type: "keypress", args: { keys: ["Enter"] } }]);
    expect(acts(t("hotkey", { keys: ["control", "shift", "t"] }))).toEqual([{ type: "keypress", args: { keys: ["Control", "Shift", "t"] } }]);
    expect(t("key_down", { key: "shift" })).toEqual({ kind: "key_down", key: "shift" });
    expect(t("key_up", { key: "shift" })).toEqual({ kind: "key_up", key: "shift" });
  });

  it("scrolls by a pixel distance (300 unless told), waits in seconds, and answers take_screenshot with the screen", () => {
    expect(acts(t("scroll", { x: 500, y: 500, direction: "down" }))).toEqual([{ type: "scroll", args: { x: 640, y: 400, scroll_x: 0, scroll_y: 300 } }]);
    expect(acts(t("scroll", { x: 500, y: 500, direction: "left", magnitude_in_pixels: 120 }))).toEqual([{ type: "scroll", args: { x: 640, y: 400, scroll_x: -120, scroll_y: 0 } }]);
    expect(acts(t("wait", {}))).toEqual([{ type: "wait", args: { ms: 1000 } }]);
    expect(acts(t("wait", { seconds: 3 }))).toEqual([{ type: "wait", args: { ms: 3000 } }]);
    expect(t("take_screenshot", {})).toEqual({ kind: "screenshot" });
    expect(acts(t("navigate", { url: "https://example.com/" }))).toEqual([{ type: "navigate", args: { url: "https://example.com/" } }]);
  });

  it("refuses the 2025 names and what does not fit", () => {
    expect(t("click_at", { x: 1, y: 1 })).toEqual({ kind: "refuse", reason: 'the function "click_at" is not supported here' });
    expect(t("scroll", { x: 1, y: 1, direction: "down", magnitude_in_pixels: 5000 })).toMatchObject({ kind: "refuse" });
    expect(t("type", { text: "" })).toEqual({ kind: "refuse", reason: "text must not be empty" });
  });
});

describe("the computerUse tool", () => {
  it("offers every function in a browser; on a desktop the 2026 set's own environment, the 2025 set without its browser functions", () => {
    expect(computerUseTool(false, "2025")).toEqual({ computerUse: { environment: "ENVIRONMENT_BROWSER" } });
    expect(computerUseTool(true, "2025")).toEqual({
      computerUse: { environment: "ENVIRONMENT_BROWSER", excludedPredefinedFunctions: ["open_web_browser", "navigate", "go_back", "go_forward", "search"] },
    });
    expect(computerUseTool(false, "2026")).toEqual({ computerUse: { environment: "ENVIRONMENT_BROWSER" } });
    expect(computerUseTool(true, "2026")).toEqual({ computerUse: { environment: "ENVIRONMENT_DESKTOP" } });
  });
});
