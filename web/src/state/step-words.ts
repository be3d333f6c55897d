// Owns how a step's text reads to the person. The server keeps what became of an action at the end
// of the step's text, in the words the model's history is written in ("(failed: not carried out: the
// person took over the screen before it)"); what the person chose themselves (taking the screen,
// denying an action) is no failure of theirs, and is said calmly, in their language.
import type { ProgressStep } from "../protocol.ts";
import { t } from "../i18n.ts";

/** The notes the server writes for the person's own choices, and how each is said to them. */
const CHOSEN: readonly { note: RegExp; said: () => string }[] = [
  { note: / \(failed: not carried out: the person took over the screen before it\)$/s, said: () => t.stepYouTookOver },
  { note: / \(failed: The person did not allow this: .*\)$/s, said: () => t.stepYouDenied },
];

export function stepWords(text: string): string {
  for (const { note, said } of CHOSEN) {
    const found = note.exec(text);
    if (found) return `${text.slice(0, found.index)} — ${said()}`;
  }
  return text;
}

/** Actions that look or wait rather than change the screen: an unchanged screen is what they meant. */
export function meantNoChange(step: ProgressStep): boolean {
  return step.action?.type === "wait" || step.action?.type === "move";
}
