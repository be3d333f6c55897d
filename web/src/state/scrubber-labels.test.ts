// The scrubber's number labels: all while they fit, thinned when the nodes get close.
import { describe, expect, it } from "vitest";
import { labelledSteps, labelWidth } from "./scrubber-labels.ts";

describe("labelledSteps", () => {
  it("labels every step while the nodes are far apart", () => {
    expect(labelledSteps({ stepCount: 5, trackWidth: 600, selected: 5, liveWidth: 30 })).toEqual([0, 1, 2, 3, 4]);
  });

  it("thins the labels of 15 steps on a phone so that none touch", () => {
    // 15 steps on a 320 px track: nodes 21 px apart.
    const shown = labelledSteps({ stepCount: 15, trackWidth: 320, selected: 15, liveWidth: labelWidth("Live · step 15") });
    expect(shown).toEqual([0, 1, 3, 5, 7, 9]);
    const xs = shown.map((i) => (i * 320) / 15);
    for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(21);
    // None runs into the live node's label at the end.
    expect(xs.at(-1)! + 12).toBeLessThanOrEqual(320 - labelWidth("Live · step 15"));
  });

  it("always labels the selected step and clears its neighbours", () => {
    const shown = labelledSteps({ stepCount: 15, trackWidth: 320, selected: 4, liveWidth: 40 });
    expect(shown).toContain(4);
    expect(shown).not.toContain(3);
    expect(shown).not.toContain(5);
  });

  it("gives CJK labels more room", () => {
    expect(labelWidth("实时")).toBeGreaterThan(labelWidth("ab"));
  });
});
