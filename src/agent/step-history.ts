// What a planner's step did, in words: the line the model's history gets for it (seed 002 §3.2)
// and what the person is told when a click could not be placed.
import type { Config } from "../core/config.ts";
import type { Point } from "../perception/coordinates.ts";
import { describeAction, type Action, type ProgressStep, type StepEffect, type StepVerification, type Usage } from "../protocol/index.ts";

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

/** One line of the model's history (seed 002 §3.2): `Step 3: click (412, 230) "Send" → no change ✗ (…)`. */
export function historyLine(step: ProgressStep, action: Action, progress: string, outcome: StepOutcome): string {
  const what = `Step ${step.index}: ${describeAction(action)} "${action.intent || progress}"`;
  if (outcome.failure) return `${what} → failed: ${outcome.failure}`;
  if (outcome.unverified) return `${what} → not clicked: the pointer could not be placed on it`;
  const { effect, verification } = step;
  if (!effect) return what;
  const corrected = verification?.attempts.some((a) => a.method === "model" && !a.on_target);
  const checked = verification ? `, pointer checked${corrected ? " and corrected" : ""}` : "";
  if (effect.changed) return `${what} → changed ✓${effect.retries > 0 ? ` (after ${effect.retries} retries)` : ""}${checked}`;
  return `${what} → no change ✗${effect.note ? ` (${effect.note})` : ""}${checked}`;
}

export function couldNotHit(target: string, attempts: number, locale: Config["locale"]): string {
  return locale === "zh"
    ? `我尝试了 ${attempts} 次，仍无法把鼠标指针放到“${target}”上，所以没有点击。请您亲自点击它，然后按“我已经操作”。`
    : `I could not place the pointer on “${target}” after ${attempts} tries, so I did not click. Please click it yourself, then press “I've done it”.`;
}
