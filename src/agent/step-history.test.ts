import { describe, expect, it } from "vitest";
import type { ProgressStep } from "../protocol/index.ts";
import { recalledHistory, stepText } from "./step-history.ts";

describe("a failed step's text", () => {
  it("keeps what became of the action whole, however long the model's progress line, so a restarted server reads it back", () => {
    const text = stepText("Clicking the button ".repeat(200), "failed: the element is gone", 1_000);
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text.endsWith(" (failed: the element is gone)")).toBe(true);
    const step = { index: 3, text, action: { type: "click", args: { x: 10, y: 20, button: "left" }, intent: "open it", requires_verification: false }, effect: null } as unknown as ProgressStep;
    expect(recalledHistory([step], false)).toEqual(['Step 3: click (10, 20) "open it" → failed: the element is gone']);
  });

  it("is the progress alone when the action did what it meant", () => {
    expect(stepText("Clicking Send", null, 1_000)).toBe("Clicking Send");
  });
});
