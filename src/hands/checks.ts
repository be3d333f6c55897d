// What the actions of one step checked, taken together: a tool call may act several times (a
// form filled field by field), and its step shows one effect and one pointer verification.
import type { Screenshot } from "../perception/screenshot.ts";
import { EFFECTS_SEEN, type StepEffect, type StepVerification, type Usage } from "../protocol/index.ts";

export interface StepChecks {
  /** Null when no action ran (a pointer that could not be placed). */
  effect: StepEffect | null;
  verification: StepVerification | null;
  usage: Usage;
  /** The screen after the last action; null when none ran. */
  after: Screenshot | null;
}

export class CheckLog {
  private current: StepChecks | null = null;
  /** Actions of this step with an effect of their own, and how many of them changed nothing. */
  private acted = 0;
  private unchanged = 0;

  /** The pointer check attempts so far in this step: the next one's captures are numbered on from here. */
  get attempts(): number {
    return this.current?.verification?.attempts.length ?? 0;
  }

  add(part: { effect?: StepEffect; verification: StepVerification | null; usage: Usage; after?: Screenshot }): void {
    const was = this.current;
    if (part.effect) {
      this.acted++;
      if (!part.effect.changed) this.unchanged++;
    }
    const effect = mergeEffects(was?.effect ?? null, part.effect ?? null);
    // One action of several that changed nothing would hide behind the others that did.
    if (effect && effect.changed && this.unchanged > 0) effect.note = `${this.unchanged} of ${this.acted} actions changed nothing`;
    this.current = {
      effect,
      verification: mergeVerifications(was?.verification ?? null, part.verification),
      usage: {
        input_tokens: (was?.usage.input_tokens ?? 0) + part.usage.input_tokens,
        output_tokens: (was?.usage.output_tokens ?? 0) + part.usage.output_tokens,
      },
      after: part.after ?? was?.after ?? null,
    };
  }

  take(): StepChecks | null {
    const taken = this.current;
    this.current = null;
    this.acted = this.unchanged = 0;
    return taken;
  }
}

function mergeEffects(a: StepEffect | null, b: StepEffect | null): StepEffect | null {
  if (!a || !b) return a ?? b;
  const notes = [a.note, b.note].filter((n): n is string => n !== null);
  // The most telling of the two: a download one action started stays the step's news.
  const seen = EFFECTS_SEEN.find((kind) => kind === a.seen || kind === b.seen);
  return {
    changed: a.changed || b.changed,
    ratio: b.ratio ?? a.ratio,
    structural: a.structural === null && b.structural === null ? null : Boolean(a.structural || b.structural),
    retries: a.retries + b.retries,
    note: notes.length > 0 ? notes.join("; ") : null,
    ...(seen ? { seen } : {}),
  };
}

function mergeVerifications(a: StepVerification | null, b: StepVerification | null): StepVerification | null {
  if (!a || !b) return a ?? b;
  return {
    verified: a.verified && b.verified,
    attempts: [...a.attempts, ...b.attempts],
    model_calls: a.model_calls + b.model_calls,
    elapsed_ms: a.elapsed_ms + b.elapsed_ms,
  };
}
