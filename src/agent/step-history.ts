// What a planner's step did, in words: the line the model's history gets for it (seed 002 §3.2),
// also for the steps an earlier server process recorded, and what the person is told when a click
// could not be placed.
import type { Config } from "../core/config.ts";
import { keptWithin } from "../core/cut-text.ts";
import type { Point } from "../perception/coordinates.ts";
import { describeAction, type Action, type EffectSeen, type ProgressStep, type StepEffect, type StepVerification, type Usage } from "../protocol/index.ts";

/** What happened at a step besides the model's turn. */
export interface StepOutcome {
  /** Where the action happened, in the pixels of the step's screenshot. */
  at: Point | null;
  effect?: StepEffect;
  verification?: StepVerification | null;
  usage?: Usage;
  failure?: string;
  unverified?: boolean;
}

/**
 * A step's text: the model's progress and, after it, what became of its action when that was not
 * what it meant (`failed: …`, `not clicked: …`), which recalledHistory reads back from the end —
 * so within `max` characters the note is kept whole and the progress is cut instead.
 */
export function stepText(progress: string, note: string | null, max: number): string {
  if (!note) return progress;
  const tail = ` (${keptWithin(note, max / 2)})`;
  return `${keptWithin(progress, max - tail.length)}${tail}`;
}

/** One line of the model's history (seed 002 §3.2): `Step 3: click (412, 230) "Send" → no change ✗ (…)`. */
export function historyLine(step: ProgressStep, action: Action, progress: string, outcome: StepOutcome): string {
  const what = `Step ${step.index}: ${describeAction(action)} "${action.intent || progress}"`;
  if (outcome.failure) return `${what} → failed: ${outcome.failure}`;
  if (outcome.unverified) return `${what} → not clicked: the pointer could not be placed on it`;
  const { effect, verification } = step;
  if (!effect) return what;
  const corrected = verification?.attempts.some((a) => a.method === "model" && !a.on_target);
  const checked = verification ? `, pointer checked${corrected ? " and corrected" : ""}` : "";
  if (effect.changed) {
    const notes = [effect.retries > 0 ? `after ${effect.retries} retries` : null, unseenEffect(effect), effect.note ?? null].filter((n) => n !== null && n !== "");
    return `${what} → changed ✓${notes.length > 0 ? ` (${notes.join("; ")})` : ""}${checked}`;
  }
  return `${what} → no change ✗${effect.note ? ` (${effect.note})` : ""}${checked}`;
}

/** What the model is told of an effect the screen need not show: it would not know it otherwise. */
const UNSEEN: Partial<Record<EffectSeen, string>> = {
  download: "started a download",
  new_tab: "opened a new tab",
  dialog: "opened a dialog",
  request: "sent a request to the site",
};

/** The words for an action's effect that no screen shows (a download it started); null for any other. */
export function unseenEffect(effect: StepEffect): string | null {
  return (effect.seen && UNSEEN[effect.seen]) ?? null;
}

/**
 * The history of steps an earlier server process recorded, as {@link historyLine} wrote it as far
 * as the record tells. `waiting`: the last step asked the person and they are answering only now.
 */
export function recalledHistory(steps: readonly ProgressStep[], waiting: boolean): string[] {
  return steps.flatMap((step, i) => {
    const { action } = step;
    if (!action) return [`Step ${step.index}: ${step.text}`];
    // An action that failed or could not be placed has no effect; its text says what became of it.
    const noted = step.effect ? null : / \((failed: .*|not clicked: .*)\)$/s.exec(step.text);
    const line = historyLine(step, action, noted ? step.text.slice(0, noted.index) : step.text, { at: null });
    const asked = action.type === "needs_user" || noted?.[1]?.startsWith("not clicked");
    const answered = asked && !(waiting && i === steps.length - 1);
    return [noted ? `${line} → ${noted[1]}` : line, ...(answered ? ["The person was asked to act and answered."] : [])];
  });
}

export function couldNotHit(target: string, attempts: number, locale: Config["locale"]): string {
  return locale === "zh"
    ? `我尝试了 ${attempts} 次，仍无法把鼠标指针放到“${target}”上，所以没有点击。请您亲自点击它，然后按“我已经操作”。`
    : `I could not place the pointer on “${target}” after ${attempts} tries, so I did not click. Please click it yourself, then press “I've done it”.`;
}
