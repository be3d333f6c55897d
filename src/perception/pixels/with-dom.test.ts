import { describe, expect, it } from "vitest";
import type { UiElement } from "../elements.ts";
import { numberAfter, pixelsOnly } from "./with-dom.ts";

const el = (id: number, kind: string, label: string, x: number, y: number, width: number, height: number): UiElement => ({ id, kind, label, box: { x, y, width, height } });

describe("a web page's elements from its DOM and its pixels", () => {
  it("keeps the DOM's, and adds only the pixel controls that no DOM element covers and that are no panel around several of the DOM's", () => {
    const dom = [
      el(1, "button", "Confirm", 100, 100, 120, 40),
      el(2, "link", "Home", 20, 10, 60, 20),
      el(3, "button", "Cancel", 520, 320, 58, 21),
      el(4, "button", "Delete", 578, 320, 55, 21),
      el(5, "link", "Docs", 30, 600, 60, 20),
      el(6, "link", "Pricing", 120, 600, 60, 20),
    ];
    const pixels = [
      el(1, "button", "Confirm", 101, 101, 118, 38), // the DOM's button again
      el(2, "icon", "", 24, 12, 14, 14), // an icon inside the DOM's link
      el(3, "text", "Welcome", 300, 50, 80, 20), // text, which the DOM has
      el(4, "button", "Play", 440, 340, 140, 50), // drawn on a canvas
      el(5, "icon", "", 700, 30, 24, 24), // an image-only control
      el(6, "button", "Cancel Delete", 499, 299, 153, 62), // a dialog's panel around two DOM buttons
      el(7, "button", "Spring sale Docs Pricing", 10, 500, 400, 200), // a card around two DOM links, with words of its own
    ];
    expect(numberAfter(dom, pixelsOnly(dom, pixels))).toEqual([...dom, el(7, "icon", "", 700, 30, 24, 24), el(8, "button", "Play", 440, 340, 140, 50), el(9, "button", "Spring sale Docs Pricing", 10, 500, 400, 200)]);
  });
});
