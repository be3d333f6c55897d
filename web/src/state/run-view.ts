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

/** Which of a step's screenshots is shown: the screen its action was done on, or the one it left. */
export type Shot = "before" | "after";

export interface ScreenView {
  frame: FrameRef | null;
  /** The page URL shown in the title bar. */
  url: string | null;
  /** The action's point as fractions of the image, for the marker; only on the screen before the action. */
  marker: { x: number; y: number } | null;
  step: ProgressStep | null;
  /** The action label, e.g. `click (412, 230)`. */
  actionLabel: string | null;
  /** For a step: which screenshot this is, and whether the other one can be shown. */
  shot: Shot | null;
  canSwitch: boolean;
}

/**
 * What the screen shows at a position. A step is shown by default on the screen its action was
 * done on, marked where it acted, since its own screenshot is taken after the action (a click that
 * navigates would be marked on the next page); `shot` asks for one side.
 */
export function screenView(run: RunState, position: Position, shot?: Shot): ScreenView {
  const step = position === "live" ? undefined : run.steps[position];
  if (position === "live" || !step) {
    const last = run.steps.at(-1);
    return {
      frame: run.task.live_frame ?? last?.screenshot ?? null,
      url: run.liveWindow ?? run.liveUrl ?? last?.url ?? run.task.start_url,
      marker: null,
      step: null,
      actionLabel: last && run.task.status === "running" ? describeStep(last) : null,
      shot: null,
      canSwitch: false,
    };
  }
  const before = beforeOf(run, position);
  const point = markerOf(step);
  const canSwitch = before !== null && step.action !== null && step.screenshot !== null;
  const side: Shot = !canSwitch ? "after" : (shot ?? (point ? "before" : "after"));
  const common = { step, actionLabel: describeStep(step), shot: side, canSwitch };
  if (side === "before" && before) return { ...common, frame: before.frame, url: before.url, marker: point };
  return { ...common, frame: step.screenshot, url: step.url, marker: null };
}

/**
 * The screen a step's action was done on: the step before's screenshot; for the first step the
 * pointer check's capture (taken just before the click) or the first live frame.
 */
function beforeOf(run: RunState, index: number): { frame: FrameRef; url: string | null } | null {
  const previous = run.steps[index - 1];
  if (previous) return previous.screenshot ? { frame: previous.screenshot, url: previous.url } : null;
  const url = run.first?.url ?? run.task.start_url;
  const checked = [...(run.steps[index]?.verification?.attempts ?? [])].reverse().find((attempt) => attempt.frame !== null)?.frame;
  if (checked) return { frame: checked, url };
  return run.first ? { frame: run.first.frame, url } : null;
}

/** The action's point as fractions of the step's own screenshot, whose pixels it is given in. */
function markerOf(step: ProgressStep): ScreenView["marker"] {
  const frame = step.screenshot;
  if (!frame || step.cursor_x === null || step.cursor_y === null || frame.width <= 0 || frame.height <= 0) return null;
  return { x: step.cursor_x / frame.width, y: step.cursor_y / frame.height };
}
