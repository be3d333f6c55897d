// Whether a planner's answer in words asks the person to act or to answer, rather than reporting a
// finished task — one rule for every family whose models end a turn in free text (Claude's and
// Gemini's text, OpenAI's message). Models are told to open such an answer with a marker; one
// without it still waits for the person when its last paragraph asks them to do what only they
// can (sign in, a captcha, a confirmation, a choice) or closes with a question to them. A false
// alarm only leaves the task waiting for a word from the person; a miss would end it unfinished.

/** What a system prompt tells the model to begin a request to the person with; it is not shown to them. */
export const ASK_MARKER = "NEEDS_USER:";

/** The request to show the person, or null when the answer ends the task. */
export function askedOfPerson(text: string): string | null {
  const said = text.trim();
  if (said === "") return null;
  if (said.toUpperCase().startsWith(ASK_MARKER)) return said.slice(ASK_MARKER.length).trim() || "Please take over and tell me when you are done.";
  const paragraph = said.split(/\n\s*\n/).at(-1) ?? said;
  const last = paragraph.split("\n").map((line) => line.trim()).filter(Boolean).at(-1) ?? "";
  if (OFFERS.test(last)) return null;
  if (/\?["')\]*_]*$/.test(last)) return said;
  if (ACTS.some((pattern) => pattern.test(paragraph))) return said;
  return ADDRESSED.test(paragraph) && ONLY_THEY_CAN.test(paragraph) ? said : null;
}

// Closing courtesies that end a finished task: they offer more, they ask for nothing.
const OFFERS = /\banything else\b|\blet me know if (you|there)\b|\bif you need\b|\bhappy to help\b/i;

// The person is told to do something before the task can go on.
const ACTS = [
  /\b(please|kindly)\b[^.!\n]{0,80}\b(sign|log) ?(in|on)\b/i,
  /\b(please|kindly) (solve|complete|confirm|approve|enter|type|scan|verify|provide|choose|select|take over)\b/i,
  /\b(you (will |'ll )?need to|you must|you have to|you should now|i need you to|we need you to)\b[^.!\n]{0,80}\b((sign|log) ?in|solve|confirm|verify|approve|pay|enter|scan|choose)\b/i,
  /\b(let|tell|notify|inform) me (know )?(when|once|after)\b/i,
  /\bonce you(?:'ve|'re| have| are)\b/i,
  /\bpress\s+["“]?I['’]ve done it/i,
];

// Words that address the person, and things only they can do.
const ADDRESSED = /\b(please|you (need|must|have|will need) to|could you|can you|would you|will you)\b/i;
const ONLY_THEY_CAN = /\b(sign(ed)? in|log(ged)? ?in|captcha|verif(y|ication)|two[- ]factor|2fa|one[- ]time|password|confirm|approve|pay(ment)?|choose|decide|let me know|tell me|reply)\b/i;
