// Acts and checks the effect (seed 002 §2.5): runs the action, waits for the screen to settle,
// captures, and compares with what the model saw. A click with no effect is repeated a few pixels
// off, a bounded number of times; a scroll with no effect means the end was reached. The result
// is data for the step record and the model's history, never a reason to fail the task.
import type { Computer, StructuralEffect } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { raceAbort } from "../core/abort.ts";
import { convert, type Point, type Spaces } from "../perception/coordinates.ts";
import { diffScreens } from "../perception/screen-diff.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { actionPoint, type Action, type FinalAction, type StepEffect } from "../protocol/index.ts";
import { execute } from "./execute.ts";

export interface Acted {
  after: Screenshot;
  effect: StepEffect;
}

const CLICKS = new Set<Action["type"]>(["click", "double_click", "right_click"]);

export async function actAndCheck(
  action: Exclude<Action, FinalAction>,
  computer: Computer,
  spaces: Spaces,
  before: Screenshot,
  config: Config["effect"],
  signal: AbortSignal,
): Promise<Acted> {
  const point = actionPoint(action);
  const target = point ? convert(point, spaces, "model", "screenshot") : null;
  const attempt = async (offset: Point) => {
    const watch = computer.watchStructure ? await raceAbort(computer.watchStructure(), signal) : null;
    await raceAbort(execute(action, computer, spaces, signal, offset), signal);
    await raceAbort(computer.settle(), signal);
    const after = await raceAbort(computer.screenshot(), signal);
    const structure = watch ? await raceAbort(watch(), signal) : null;
    const structural = structure ? hasEffect(structure) : null;
    // The DOM already shows an effect: comparing pixels would only cost time.
    if (structural) return { after, ratio: null, changed: true, structural };
    const cursor = await computer.cursorPosition();
    const diff = await diffScreens(before, after, {
      pixelThreshold: config.pixelThreshold,
      changeRatio: config.changeRatio,
      ignorePoints: target ? [target, cursor] : [cursor],
    });
    return { after, ratio: round(diff.ratio), changed: diff.changed, structural };
  };

  let result = await attempt({ x: 0, y: 0 });
  let retries = 0;
  if (CLICKS.has(action.type)) {
    for (const offset of jitter(config.jitterPx).slice(0, config.clickRetries)) {
      if (result.changed) break;
      retries++;
      result = await attempt(offset);
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
    after: result.after,
    effect: { changed: result.changed, ratio: result.ratio, structural: result.structural, retries, note },
  };
}

function hasEffect(effect: StructuralEffect): boolean {
  return effect.mutations > 0 || effect.navigated || effect.scrolled;
}

/** Points around the target, in screenshot pixels: right-down, left-up, right-up, left-down. */
function jitter(px: number): Point[] {
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
