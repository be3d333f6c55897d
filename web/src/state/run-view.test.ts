// The sync logic shared by timeline, scrubber and screen.
import { describe, expect, it } from "vitest";
import { liveFrame, step, task } from "../testing/fixtures.ts";
import { fractionOfValue, positionFromValue, screenView, scrubberValue, valueAtFraction, valueForKey } from "./run-view.ts";
import type { RunState } from "./session-state.ts";

const run: RunState = {
  task: task({ live_frame: liveFrame(3), current_step_index: 3 }),
  steps: [step(1), step(2), step(3, { screenshot: null })],
  liveUrl: "http://127.0.0.1:9/live.html",
  liveWindow: null,
  stopReason: null,
};

describe("positions and scrubber values", () => {
  it("maps steps to 0…n-1 and live to n, both ways", () => {
    expect(scrubberValue("live", 3)).toBe(3);
    expect(scrubberValue(1, 3)).toBe(1);
    expect(positionFromValue(3, 3)).toBe("live");
    expect(positionFromValue(0, 3)).toBe(0);
    expect(positionFromValue(7, 3)).toBe("live");
    expect(positionFromValue(-2, 3)).toBe(0);
  });

  it("moves with the keys and stops at the ends", () => {
    expect(valueForKey("ArrowLeft", 3, 3)).toBe(2);
    expect(valueForKey("ArrowRight", 3, 3)).toBe(3);
    expect(valueForKey("ArrowLeft", 0, 3)).toBe(0);
    expect(valueForKey("Home", 2, 3)).toBe(0);
    expect(valueForKey("End", 0, 3)).toBe(3);
    expect(valueForKey("a", 1, 3)).toBeNull();
  });

  it("snaps a point on the track to the nearest node", () => {
    expect(valueAtFraction(0, 4)).toBe(0);
    expect(valueAtFraction(0.2, 4)).toBe(1);
    expect(valueAtFraction(0.99, 4)).toBe(4);
    expect(valueAtFraction(1.5, 4)).toBe(4);
    expect(fractionOfValue(2, 4)).toBe(0.5);
    expect(fractionOfValue(0, 0)).toBe(1);
  });
});

describe("screenView", () => {
  it("shows the live frame and its URL at the live node", () => {
    expect(screenView(run, "live")).toMatchObject({ frame: liveFrame(3), url: "http://127.0.0.1:9/live.html", marker: null, step: null });
    // On a desktop the title bar names the focused window.
    expect(screenView({ ...run, liveUrl: null, liveWindow: "notes.txt — Mousepad" }, "live").url).toBe("notes.txt — Mousepad");
  });

  it("shows a step on the screen before its action, marked where it acted, in fractions of the image", () => {
    const view = screenView(run, 1);
    expect(view).toMatchObject({ shot: "before", canSwitch: true });
    // The step before's screenshot is the screen this step acted on.
    expect(view.frame?.url).toBe("/api/frames/frame_1");
    expect(view.url).toBe("http://127.0.0.1:9/page-1.html");
    expect(view.marker).toEqual({ x: 0.2, y: 0.1 });
    expect(view.actionLabel).toBe("click (200, 50)");
  });

  it("shows the step's own screenshot, after its action, unmarked, when asked", () => {
    const view = screenView(run, 1, "after");
    expect(view).toMatchObject({ shot: "after", marker: null, url: "http://127.0.0.1:9/page-2.html" });
    expect(view.frame?.url).toBe("/api/frames/frame_2");
  });

  it("takes the first step's before from its pointer check, else the first live frame, else shows only after", () => {
    const checked = step(1, {
      verification: {
        verified: true,
        attempts: [{ method: "model", cursor_x: 100, cursor_y: 50, on_target: true, dx: null, dy: null, frame: { id: "check", url: "/api/frames/check", width: 1000, height: 500 }, annotated: null }],
        model_calls: 1,
        elapsed_ms: 10,
      },
    });
    expect(screenView({ ...run, steps: [checked] }, 0).frame?.url).toBe("/api/frames/check");
    const first = { frame: liveFrame(1), url: "http://127.0.0.1:9/form.html" };
    expect(screenView({ ...run, first }, 0)).toMatchObject({ frame: liveFrame(1), url: "http://127.0.0.1:9/form.html", shot: "before", marker: { x: 0.1, y: 0.1 } });
    expect(screenView(run, 0)).toMatchObject({ frame: { url: "/api/frames/frame_1" }, shot: "after", canSwitch: false, marker: null });
  });

  it("has no marker for a step without a screenshot or a point", () => {
    expect(screenView(run, 2).marker).toBeNull();
    const typed = { ...run, steps: [step(1), step(2, { cursor_x: null, cursor_y: null })] };
    // Nothing to mark: the step shows what it left.
    expect(screenView(typed, 1)).toMatchObject({ marker: null, shot: "after" });
  });

  it("falls back to the last step's screenshot when no live frame exists", () => {
    const noLive = { ...run, task: task({ live_frame: null }), liveUrl: null, steps: [step(1)] };
    expect(screenView(noLive, "live")).toMatchObject({ frame: { url: "/api/frames/frame_1" }, url: "http://127.0.0.1:9/page-1.html" });
  });
});
