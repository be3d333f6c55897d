// A chat's title from its first message, made without a model so it is instant and the same every
// time: the first sentence or clause, without the polite lead-in, cut at a word.

export const DEFAULT_TITLE = "New chat";
const MAX_CHARS = 48;

/** Lead-ins that say nothing about the chat ("please", "can you", "请", "帮我"), possibly several. */
const FILLER =
  /^(?:(?:please|pls|kindly|hey|hi|hello|ok(?:ay)?|so|now|(?:could|can|would|will) you(?: please)?|i(?:'d| would) like you to|i want you to|i need you to)\b[\s,!:;.-]*|(?:请你?|麻烦你?|帮我|你能|能否|可以)\s*)+/i;
/** A sentence or clause ends at . ! ? ; (followed by a space or the end) or their CJK forms. */
const CLAUSE_END = /[.!?;](?=\s|$)|[。！？；]/;

export function summariseTitle(text: string): string {
  const line = text.split("\n").map((l) => l.trim()).find((l) => l.length > 0) ?? "";
  const collapsed = line.replace(/\s+/g, " ");
  const stripped = collapsed.replace(FILLER, "").trim() || collapsed;
  const end = CLAUSE_END.exec(stripped);
  // A question keeps its mark; other closing punctuation goes.
  const clause = end ? stripped.slice(0, end.index + (/[?？]/.test(end[0]) ? 1 : 0)) : stripped;
  const title = clause.replace(/[\s,;:.，、]+$/, "").trim();
  if (!title) return DEFAULT_TITLE;
  return cutAtWord(title);
}

function cutAtWord(title: string): string {
  const chars = [...title];
  if (chars.length <= MAX_CHARS) return title;
  const head = chars.slice(0, MAX_CHARS - 1).join("");
  const space = head.lastIndexOf(" ");
  // Text without spaces (Chinese, a long URL) is cut where it must be.
  const cut = space >= MAX_CHARS / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.，、]+$/, "")}…`;
}
