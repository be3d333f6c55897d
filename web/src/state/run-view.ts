// Owns the sync logic of a run card: one position (a step, or the live screen) that the
// timeline, the scrubber and the screen window all read and all set.
import { describeStep, type FrameRef, type ProgressStep } from "../protocol.ts";
import type { RunState } from "./session-state.ts";

/** An index into the run's steps, or the final "live" node. */
export type Position = number | "live";

/** The scrubber's value: steps are 0…n-1 and the live node is n. */
export function scrubberValue(position: Position, stepCount: number): number {
  return position === "live" ? stepCount : Math.min(Math.max(position, 0), stepCount);
}

export function positionFromValue(value: number, stepCount: number): Position {
  const clamped = Math.min(Math.max(Math.round(value), 0), stepCount);
  return clamped === stepCount ? "live" : clamped;
}

/** The value a key moves the scrubber to, or null for keys it ignores. */
export function valueForKey(key: string, value: number, stepCount: number): number | null {
  switch (key) {
    case "ArrowLeft":
    case "ArrowDown":
      return Math.max(value - 1, 0);
    case "ArrowRight":
    case "ArrowUp":
      return Math.min(value + 1, stepCount);
    case "Home":
      return 0;
    case "End":
      return stepCount;
    case "PageDown":
      return Math.max(value - 5, 0);
    case "PageUp":
      return Math.min(value + 5, stepCount);
    default:
      return null;
  }
}

/** The node nearest to a point on the track, given as a fraction 0…1 of its width. */
export function valueAtFraction(fraction: number, stepCount: number): number {
  return Math.round(Math.min(Math.max(fraction, 0), 1) * stepCount);
}

/** Where a node sits on the track, as a fraction 0…1. */
export function fractionOfValue(value: number, stepCount: number): number {
  return stepCount === 0 ? 1 : value / stepCount;
}

export interface ScreenView {
  frame: FrameRef | null;
  /** The page URL shown in the title bar. */
  url: string | null;
  /** The action's point as fractions of the image, for the marker. */
  marker: { x: number; y: number } | null;
  step: ProgressStep | null;
  /** The action label, e.g. `click (412, 230)`. */
  actionLabel: string | null;
}

export function screenView(run: RunState, position: Position): ScreenView {
  const step = position === "live" ? undefined : run.steps[position];
  if (!step) {
    const last = run.steps.at(-1);
    return {
      frame: run.task.live_frame ?? last?.screenshot ?? null,
      url: run.liveWindow ?? run.liveUrl ?? last?.url ?? run.task.start_url,
      marker: null,
      step: null,
      actionLabel: last && run.task.status === "running" ? describeStep(last) : null,
    };
  }
  return { frame: step.screenshot, url: step.url, marker: markerOf(step), step, actionLabel: describeStep(step) };
}

function markerOf(step: ProgressStep): ScreenView["marker"] {
  const frame = step.screenshot;
  if (!frame || step.cursor_x === null || step.cursor_y === null || frame.width <= 0 || frame.height <= 0) return null;
  return { x: step.cursor_x / frame.width, y: step.cursor_y / frame.height };
}
