import { describe, expect, it } from "vitest";
import { convert, spacesFor } from "../coordinates.ts";
import { centerOf, describeElements, scaleElements } from "../elements.ts";
import { numberElements } from "./assemble.ts";
import type { Detection } from "./detection.ts";

const at = (kind: Detection["kind"], label: string, x: number, y: number, width = 60, height = 24): Detection => ({ kind, label, box: { x, y, width, height } });

describe("the element list from pixel detections", () => {
  it("keeps the most important ones, then numbers them top to bottom and left to right within a row", () => {
    const detections = [at("button", "Send", 900, 700), at("textbox", "Name", 300, 204, 200, 30), at("button", "Open", 100, 100), at("icon", "", 40, 103, 24, 24), at("text", "Welcome", 500, 20), at("text", "Footer", 10, 780)];
    const elements = numberElements(detections, 5);
    expect(elements.map((e) => [e.id, e.kind, e.label])).toEqual([
      [1, "text", "Welcome"],
      [2, "icon", ""],
      [3, "button", "Open"],
      [4, "textbox", "Name"],
      [5, "button", "Send"],
    ]);
  });

  it("says in which part of the screen each element is", () => {
    const elements = numberElements([at("button", "Open", 100, 100), at("button", "Send", 1150, 740), at("text", "Title", 610, 390)], 40);
    expect(describeElements(elements, { width: 1280, height: 800 })).toBe(
      ['[1] button "Open" at (130, 112), top left', '[2] text "Title" at (640, 402), centre', '[3] button "Send" at (1180, 752), bottom right'].join("\n"),
    );
  });

  it.each([1, 1.25, 2])("turns a box into the click point in logical pixels at devicePixelRatio %s", (dpr) => {
    // Found in the capture (device pixels), shown to the model fitted into 1280×800.
    const spaces = spacesFor({ width: 1280, height: 800 }, dpr, { width: 1280, height: 800 });
    const [inCapture] = numberElements([at("button", "Save", 400 * dpr, 300 * dpr, 80 * dpr, 30 * dpr)], 40);
    const [seen] = scaleElements([inCapture!], spaces.screenshot, spaces.model);
    expect(convert(centerOf(seen!), spaces, "model", "logical")).toEqual({ x: 440, y: 315 });
  });
});
