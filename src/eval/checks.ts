// Whether a task succeeded: its check judged against its end state. Each verdict says why, in words
// a person reading the report can check against the run.
import type { EndState } from "./end-state.ts";
import type { Check } from "./suite.ts";

export interface Verdict {
  pass: boolean;
  why: string;
}

/** A model that looks at the end screen and the answer and says whether the criteria are met (eval/judge.ts). */
export interface Judge {
  judge(criteria: string, end: EndState, signal: AbortSignal): Promise<Verdict>;
}

const QUOTE_MAX = 120;

function quoted(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(line.length > QUOTE_MAX ? `${line.slice(0, QUOTE_MAX)}…` : line);
}

function matched(what: string, pattern: RegExp, value: string | null): Verdict {
  if (value === null) return { pass: false, why: `there was no ${what} to match ${pattern}` };
  const pass = pattern.test(value);
  return { pass, why: `the ${what} ${quoted(value)} ${pass ? "matches" : "does not match"} ${pattern}` };
}

export async function runCheck(check: Check, end: EndState, judge: Judge | null, signal: AbortSignal): Promise<Verdict> {
  switch (check.type) {
    case "url":
      return matched("address", check.pattern, end.url);
    case "page_text":
      return matched("page's text", check.pattern, end.text);
    case "answer":
      return matched("answer", check.pattern, end.answer);
    case "file": {
      const name = end.files.find((file) => check.pattern.test(file));
      if (name) return { pass: true, why: `the file ${quoted(name)} matches ${check.pattern}` };
      return { pass: false, why: end.files.length === 0 ? "the task received no file" : `no file the task received (${end.files.map(quoted).join(", ")}) matches ${check.pattern}` };
    }
    case "js": {
      const value = end.js.get(check.expression);
      if (value === undefined) return { pass: false, why: `${quoted(check.expression)} was not evaluated: the task's computer never opened` };
      if (typeof value === "object") return { pass: false, why: `${quoted(check.expression)} threw: ${value.error}` };
      return { pass: value, why: `${quoted(check.expression)} is ${value}` };
    }
    case "judge": {
      if (!judge) return { pass: false, why: "a judge check needs a judge model: set EVAL_JUDGE_MODEL" };
      const verdict = await judge.judge(check.criteria, end, signal).catch((error: unknown) => ({ pass: false, why: `the judge could not answer: ${(error as Error).message}` }));
      return { pass: verdict.pass, why: `the judge says: ${verdict.why}` };
    }
    case "all": {
      const verdicts: Verdict[] = [];
      for (const inner of check.checks) {
        const verdict = await runCheck(inner, end, judge, signal);
        if (!verdict.pass) return verdict;
        verdicts.push(verdict);
      }
      return { pass: true, why: verdicts.map((v) => v.why).join("; ") };
    }
  }
}
