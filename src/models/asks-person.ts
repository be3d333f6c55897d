// Whether a planner's closing words ask the person to act or to answer, rather than report a
// finished task: for families whose models end a turn in free text (OpenAI's message, Claude's
// text). Such an answer puts the task in awaiting_user; nothing that asks the person completes it.

/** What the person is asked to do, when a model ends its turn asking them to act or answer; else null. */
export function asksThePerson(text: string): string | null {
  const said = text.trim();
  if (said === "") return null;
  const last = said.split("\n").map((line) => line.trim()).filter(Boolean).at(-1) ?? "";
  // A closing question waits for the person's answer.
  if (/\?["')\]*_]*$/.test(last)) return said;
  return ACTS.some((pattern) => pattern.test(said)) ? said : null;
}

// The person is told to do something before the task can go on.
const ACTS = [
  /\b(please|kindly)\b[^.!\n]{0,80}\b(sign|log) ?in\b/i,
  /\b(please|kindly)\b[^.!\n]{0,80}\b(solve|complete|enter|confirm|approve|verify|provide|type|take over)\b/i,
  /\b(you (will )?need to|you must|you'll need to|you have to)\b[^.!\n]{0,80}\b((sign|log) ?in|solve|confirm|verify|approve|pay|enter)\b/i,
  /\b(let me know|tell me) when\b/i,
  /\bpress\s+["“]?I['’]ve done it/i,
];
