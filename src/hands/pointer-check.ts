// The cursor-checked click of seed 000 §4.1: move to the target, look, correct, look again, up to
// `maxAttempts` times, and only then click. Where the computer knows what is under the pointer
// (a browser's DOM) a hit test confirms the target without a model, and follows an element that
// moved away from the pointer; otherwise — or when the hit test fails and the element is not to
// be found — the model looks at an annotated capture with the structured coordinates and answers
// `{on_target, dx, dy}`. A correction within `tolerancePx` is taken without another look.
import type { Computer, ElementTarget } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { raceAbort } from "../core/abort.ts";
import type { Progress } from "../core/progress.ts";
import { annotatePointer } from "../perception/annotate.ts";
import { convert, type Point, type Size } from "../perception/coordinates.ts";
import { modelView } from "../perception/model-image.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { FrameRef, StepVerification, Usage, VerificationAttempt } from "../protocol/index.ts";

/** A model's look at the pointer, handed down by the driver that has a model that can look. */
export interface PointerLook {
  /** The size the model wants its images fitted into; null: the configured maximum. */
  imageSize: Size | null;
  check(input: { intent: string; target: Point; cursor: Point; image: Screenshot }, signal: AbortSignal): Promise<{ on_target: boolean; dx: number; dy: number; usage: Usage }>;
}

export interface FrameOptions {
  kind?: "raw" | "annotated";
  /** The number of the pointer check this capture belongs to. */
  check?: number;
  /** The screen an approval asks about. */
  approval?: boolean;
}

export interface PointerCheckDeps {
  computer: Computer;
  config: Config;
  look: PointerLook | null;
  /** Stores a capture of this step's pointer checks. */
  saveFrame(shot: Screenshot, options: FrameOptions): Promise<FrameRef>;
  /** The pointer check attempts this step made before this check: its captures are numbered on. */
  checksBefore: number;
  /** The action's progress: the pointer's moves stop with it. */
  progress: Progress;
}

export interface Checked {
  verification: StepVerification;
  /** Where to click, in screenshot pixels; null when the pointer could not be verified. */
  point: Point | null;
  usage: Usage;
}

/** Checks the pointer on `target` (screenshot pixels), meant for `element` when the caller knows it. */
export async function checkPointer(target: Point, intent: string, element: ElementTarget | null, deps: PointerCheckDeps): Promise<Checked> {
  const { computer, config, look, progress } = deps;
  const { signal } = progress;
  const { method, maxAttempts, tolerancePx } = config.verification;
  const started = Date.now();
  const attempts: VerificationAttempt[] = [];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const canHitTest = method !== "model" && computer.holdTarget !== undefined;
  const canAsk = method !== "hit_test" && look !== null;
  const done = (point: Point | null): Checked => ({
    point,
    usage,
    verification: {
      verified: point !== null,
      attempts,
      model_calls: attempts.filter((a) => a.method === "model").length,
      elapsed_ms: Date.now() - started,
    },
  });

  let aim = target;
  for (let n = 1; n <= maxAttempts; n++) {
    const hold = canHitTest ? await raceAbort(computer.holdTarget!(aim.x, aim.y, element ?? undefined), signal) : null;
    await computer.move(aim.x, aim.y, progress);
    await raceAbort(computer.settle(), signal);
    if (hold) {
      const hit = await raceAbort(hold(), signal);
      attempts.push({ method: "hit_test", cursor_x: aim.x, cursor_y: aim.y, on_target: hit.onTarget, dx: null, dy: null, frame: null, annotated: null });
      if (hit.onTarget) return done(aim);
      // The element moved away from the pointer (a hover that shifts the layout): follow it.
      if (hit.now && (hit.now.x !== aim.x || hit.now.y !== aim.y)) {
        aim = hit.now;
        continue;
      }
    }
    if (!canAsk) return done(null);

    const shot = await raceAbort(computer.screenshot(), signal);
    const cursor = await computer.cursorPosition();
    const max = look!.imageSize ?? { width: config.model.imageMaxWidth, height: config.model.imageMaxHeight };
    const view = await modelView(shot, computer.logicalSize, max, config.browser.jpegQuality);
    const cursorM = convert(cursor, view.spaces, "screenshot", "model");
    const aimM = convert(aim, view.spaces, "screenshot", "model");
    const image = await annotatePointer(view.image, cursorM, config.locale, config.browser.jpegQuality);
    const check = deps.checksBefore + n;
    const [frame, annotated] = await Promise.all([deps.saveFrame(shot, { check }), deps.saveFrame(image, { check, kind: "annotated" })]);
    const answer = await look!.check({ intent, target: aimM, cursor: cursorM, image }, signal);
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    attempts.push({ method: "model", cursor_x: cursor.x, cursor_y: cursor.y, on_target: answer.on_target, dx: answer.dx, dy: answer.dy, frame, annotated });
    if (answer.on_target) return done(cursor);
    // "Not there" without saying where is no correction: look again rather than click.
    if (answer.dx === 0 && answer.dy === 0) continue;
    const corrected = convert({ x: cursorM.x + answer.dx, y: cursorM.y + answer.dy }, view.spaces, "model", "screenshot");
    if (Math.hypot(answer.dx, answer.dy) <= tolerancePx) return done(corrected);
    aim = corrected;
  }
  return done(null);
}
