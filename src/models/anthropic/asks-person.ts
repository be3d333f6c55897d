// When Claude's answer without a tool call hands the task to the person instead of ending it.
// Claude is told to open such an answer with a marker; an answer without it still waits for the
// person when its last paragraph asks them to act: it addresses them ("please", "you need to",
// "could you"…) about something only they can do (sign in, a CAPTCHA, a confirmation, a choice).

/** What the system prompt tells Claude to begin a request to the person with; it is not shown to them. */
export const ASK_MARKER = "NEEDS_USER:";

const ADDRESSED = /\b(please|you (need|must|have|will need) to|could you|can you|would you|will you)\b/i;
const ONLY_THEY_CAN = /\b(sign(ed)? in|log(ged)? ?in|captcha|verif(y|ication)|two[- ]factor|2fa|one[- ]time|password|confirm|approve|pay(ment)?|choose|decide|let me know|tell me|reply)\b/i;

/** The request to show the person, or null when the answer ends the task. */
export function askedOfPerson(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.toUpperCase().startsWith(ASK_MARKER)) return trimmed.slice(ASK_MARKER.length).trim() || "Please take over and tell me when you are done.";
  const last = trimmed.split(/\n\s*\n/).at(-1) ?? "";
  return ADDRESSED.test(last) && ONLY_THEY_CAN.test(last) ? trimmed : null;
}
