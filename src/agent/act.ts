// Acts and checks (seed 000 §4, seed 002 §2.5): a click that asks for it is verified first (the
// pointer is checked before the button goes down); then the action runs, the screen settles, and
// the capture is compared with what the model saw. A click with no effect is repeated a few pixels
// off, a bounded number of times; a scroll with no effect means the end was reached. What happened
// is data for the step record and the model's history, never a reason to fail the task.
import type { Computer, StructuralEffect } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { delay, raceAbort } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";
import type { Planner } from "../models/planner.ts";
import { convert, type Point, type Spaces } from "../perception/coordinates.ts";
import { diffScreens } from "../perception/screen-diff.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { actionPoint, type Action, type FinalAction, type StepEffect, type StepVerification, type Usage } from "../protocol/index.ts";
import { execute } from "./execute.ts";
import { verifyClick, type VerifyDeps } from "./verify-click.ts";

export type Acted =
  | {
      kind: "acted";
      after: Screenshot;
      /** Where the action happened (after any correction), in screenshot pixels. */
      at: Point | null;
      effect: StepEffect;
      verification: StepVerification | null;
      usage: Usage;
    }
  /** The pointer could not be placed on the target: nothing was clicked. */
  | { kind: "unverified"; verification: StepVerification; usage: Usage };

export interface ActDeps extends VerifyDeps {
  computer: Computer;
  planner: Planner;
  config: Config;
}

const CLICKS = new Set<Action["type"]>(["click", "double_click", "right_click"]);
const CAPTURE_ATTEMPTS = 3;
const CAPTURE_BACKOFF_MS = 150;
const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

/** Per action (`requires_verification`), per planner (`verifyClicks`) or globally (VERIFY_CLICKS). */
export function needsVerification(action: Action, planner: Planner, config: Config["verification"]): boolean {
  if (!CLICKS.has(action.type)) return false;
  const mode = planner.verifyClicks ?? config.clicks;
  return mode === "always" || (mode === "requested" && action.requires_verification);
}

export async function act(action: Exclude<Action, FinalAction>, spaces: Spaces, before: Screenshot, deps: ActDeps): Promise<Acted> {
  const { computer, config, signal } = deps;
  const point = actionPoint(action);
  const target = point ? convert(point, spaces, "model", "screenshot") : null;
  let offset: Point = { x: 0, y: 0 };
  let verification: StepVerification | null = null;
  let usage = NO_USAGE;
  if (target && needsVerification(action, deps.planner, config.verification)) {
    const checked = await verifyClick(target, action.intent, spaces, deps);
    verification = checked.verification;
    usage = checked.usage;
    if (!checked.point) return { kind: "unverified", verification, usage };
    offset = { x: checked.point.x - target.x, y: checked.point.y - target.y };
  }

  const attempt = async (jitter: Point) => {
    const watch = computer.watchStructure ? await raceAbort(computer.watchStructure(), signal) : null;
    await raceAbort(execute(action, computer, spaces, signal, { x: offset.x + jitter.x, y: offset.y + jitter.y }), signal);
    await raceAbort(computer.settle(), signal);
    const after = await captureAfter(computer, signal);
    const structure = watch ? await raceAbort(watch(), signal) : null;
    const structural = structure ? hasEffect(structure) : null;
    // The DOM already shows an effect: comparing pixels would only cost time.
    if (structural) return { after, ratio: null, changed: true, structural };
    const cursor = await computer.cursorPosition();
    const diff = await diffScreens(before, after, {
      pixelThreshold: config.effect.pixelThreshold,
      changeRatio: config.effect.changeRatio,
      ignorePoints: target ? [target, cursor] : [cursor],
    });
    return { after, ratio: round(diff.ratio), changed: diff.changed, structural };
  };

  let result = await attempt({ x: 0, y: 0 });
  let retries = 0;
  if (CLICKS.has(action.type)) {
    for (const jitter of jitters(config.effect.jitterPx).slice(0, config.effect.clickRetries)) {
      if (result.changed) break;
      retries++;
      result = await attempt(jitter);
    }
  }
  const note = result.changed
    ? null
    : action.type === "scroll"
      ? "the end was reached: scrolling further this way changes nothing"
      : retries > 0
        ? `retried ${retries} times a few pixels off`
        : null;
  return {
    kind: "acted",
    after: result.after,
    at: target ? { x: target.x + offset.x, y: target.y + offset.y } : null,
    effect: { changed: result.changed, ratio: result.ratio, structural: result.structural, retries, note },
    verification,
    usage,
  };
}

/**
 * The screen after an action. The action may have closed the page it acted on (a popup's last
 * click), so a capture that fails is tried again once the computer has found its screen again:
 * the action happened, and must not be reported as failed.
 */
export async function captureAfter(computer: Computer, signal: AbortSignal): Promise<Screenshot> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await raceAbort(computer.screenshot(), signal);
    } catch (error) {
      if (attempt >= CAPTURE_ATTEMPTS || !(error instanceof AppError) || error.code !== "ACTION_FAILED") throw error;
      await delay(CAPTURE_BACKOFF_MS * attempt, signal);
    }
  }
}

function hasEffect(effect: StructuralEffect): boolean {
  return effect.mutations > 0 || effect.navigated || effect.scrolled || effect.requests > 0;
}

/** Points around the target, in screenshot pixels: right-down, left-up, right-up, left-down. */
function jitters(px: number): Point[] {
  return [
    { x: px, y: px },
    { x: -px, y: -px },
    { x: px, y: -px },
    { x: -px, y: px },
  ];
}

function round(ratio: number): number {
  return Math.round(ratio * 10_000) / 10_000;
}
