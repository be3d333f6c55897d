// Whether a planner's answer in words asks the person to act (sign in, solve a captcha, confirm a
// payment) rather than reporting the task done. The system prompt asks the model to end such an
// answer by asking to be told when the person is done, which these phrases catch; a false alarm
// only leaves the task waiting for a word from the person, a miss would end it unfinished.
const ASKS = [
  /\b(let|tell|notify|inform) me (know )?(when|once|after|if)\b/i,
  /\bonce you(?:'ve|'re| have| are)\b/i,
  /\b(?:i|we) need you to\b/i,
  /\byou(?:'ll| will)? need to\b/i,
  /\byou (must|have to|should now)\b/i,
  /\bplease\b[^.!?\n]*\b(log|sign)\s?(in|on)\b/i,
  /\bplease (solve|complete|confirm|approve|enter|type|scan|verify|provide|choose|select|take over|check your)\b/i,
];

export function asksThePerson(text: string): boolean {
  return ASKS.some((pattern) => pattern.test(text));
}
