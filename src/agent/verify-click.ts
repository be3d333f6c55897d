// The cursor-checked click of seed 000 §4.1: move to the target, look, correct, look again, up to
// `maxAttempts` times, and only then click. Where the computer knows what is under the pointer
// (a browser's DOM) a hit test confirms the target without a model call; otherwise — or when the
// hit test fails — the planner sees an annotated capture with the structured coordinates and
// answers `{on_target, dx, dy}`. A correction within `tolerancePx` is taken without another look.
import type { Computer } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import { raceAbort } from "../core/abort.ts";
import type { Planner } from "../models/planner.ts";
import { annotatePointer } from "../perception/annotate.ts";
import { convert, type Point, type Spaces } from "../perception/coordinates.ts";
import { modelView } from "../perception/model-image.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { FrameRef, StepVerification, Usage, VerificationAttempt } from "../protocol/index.ts";
import type { FrameOptions } from "./ports.ts";

export interface VerifyDeps {
  computer: Computer;
  planner: Planner;
  config: Config;
  /** Stores a capture of this step's pointer checks. */
  saveFrame(shot: Screenshot, options: FrameOptions): Promise<FrameRef>;
  signal: AbortSignal;
}

export interface Verified {
  verification: StepVerification;
  /** Where to click, in screenshot pixels; null when the pointer could not be verified. */
  point: Point | null;
  usage: Usage;
}

export async function verifyClick(target: Point, intent: string, spaces: Spaces, deps: VerifyDeps): Promise<Verified> {
  const { computer, planner, config, signal } = deps;
  const { method, maxAttempts, tolerancePx } = config.verification;
  const started = Date.now();
  const attempts: VerificationAttempt[] = [];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const canHitTest = method !== "model" && computer.holdTarget !== undefined;
  const canAsk = method !== "hit_test" && planner.checkPointer !== undefined;
  const done = (point: Point | null): Verified => ({
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
    const check = canHitTest ? await raceAbort(computer.holdTarget!(aim.x, aim.y), signal) : null;
    await raceAbort(computer.move(aim.x, aim.y), signal);
    await raceAbort(computer.settle(), signal);
    if (check) {
      const held = await raceAbort(check(), signal);
      attempts.push({ method: "hit_test", cursor_x: aim.x, cursor_y: aim.y, on_target: held, dx: null, dy: null, frame: null, annotated: null });
      if (held) return done(aim);
    }
    if (!canAsk) return done(null);

    const shot = await raceAbort(computer.screenshot(), signal);
    const cursor = await computer.cursorPosition();
    const max = planner.imageSize?.(shot) ?? { width: config.model.imageMaxWidth, height: config.model.imageMaxHeight };
    const view = await modelView(shot, computer.logicalSize, max, config.browser.jpegQuality);
    const cursorM = convert(cursor, view.spaces, "screenshot", "model");
    const aimM = convert(aim, view.spaces, "screenshot", "model");
    const image = await annotatePointer(view.image, cursorM, config.locale, config.browser.jpegQuality);
    const [frame, annotated] = await Promise.all([
      deps.saveFrame(shot, { check: n }),
      deps.saveFrame(image, { check: n, kind: "annotated" }),
    ]);
    const answer = await planner.checkPointer!({ intent, target: aimM, cursor: cursorM, image }, signal);
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
