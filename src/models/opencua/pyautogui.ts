// A whitelist reader for the pyautogui code OpenCUA-style models write. It tokenizes calls whose
// arguments are literals (numbers, strings, lists, True/False/None) and accepts only the known
// `pyautogui.*` and `computer.*` functions; anything else is refused. Nothing is ever evaluated.
import type { Parsed } from "../openai-compatible/ask.ts";

export type Literal = number | string | boolean | null | Literal[];

export interface Call {
  fn: string;
  args: Literal[];
  kwargs: Record<string, Literal>;
}

export const ALLOWED = new Set([
  "pyautogui.click",
  "pyautogui.doubleClick",
  "pyautogui.rightClick",
  "pyautogui.moveTo",
  "pyautogui.dragTo",
  "pyautogui.scroll",
  "pyautogui.hscroll",
  "pyautogui.write",
  "pyautogui.typewrite",
  "pyautogui.press",
  "pyautogui.hotkey",
  "computer.wait",
  "computer.terminate",
]);

/** Reads the code of a ```python block (or the whole text) into calls, in order. */
export function parsePyautogui(text: string): Parsed<Call[]> {
  const code = /```(?:python)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
  const calls: Call[] = [];
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line === "import pyautogui") continue;
    const match = /^([A-Za-z_][\w.]*)\s*\((.*)\)$/.exec(line);
    if (!match) return { ok: false, error: `not a call: ${JSON.stringify(line.slice(0, 80))}` };
    const fn = match[1]!;
    if (!ALLOWED.has(fn)) return { ok: false, error: `${fn} is not allowed; use only ${[...ALLOWED].join(", ")}` };
    try {
      calls.push({ fn, ...readArguments(match[2]!) });
    } catch (error) {
      return { ok: false, error: `${fn}: ${(error as Error).message}` };
    }
  }
  return calls.length > 0 ? { ok: true, value: calls } : { ok: false, error: "there is no pyautogui code" };
}

/** The arguments of one call, literals only: `1, x=2, name='a'`. */
export function readArguments(source: string): Omit<Call, "fn"> {
  const reader = new Reader(source);
  const args: Literal[] = [];
  const kwargs: Record<string, Literal> = {};
  reader.space();
  while (!reader.done()) {
    const name = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(reader.rest());
    if (name) {
      reader.skip(name[0].length);
      kwargs[name[1]!] = reader.literal();
    } else {
      if (Object.keys(kwargs).length > 0) throw new Error("a positional argument after a keyword argument");
      args.push(reader.literal());
    }
    reader.space();
    if (!reader.done()) reader.expect(",");
    reader.space();
  }
  return { args, kwargs };
}

class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  rest(): string {
    return this.text.slice(this.at);
  }

  skip(n: number): void {
    this.at += n;
  }

  space(): void {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  expect(char: string): void {
    if (this.text[this.at] !== char) throw new Error(`expected ${JSON.stringify(char)} at ${JSON.stringify(this.rest().slice(0, 20))}`);
    this.at++;
  }

  literal(): Literal {
    this.space();
    const c = this.text[this.at];
    if (c === "'" || c === '"') return this.string(c);
    if (c === "[" || c === "(") return this.list(c === "[" ? "]" : ")");
    const word = /^(True|False|None|-?\d+(?:\.\d+)?(?:e-?\d+)?)/.exec(this.rest());
    if (!word) throw new Error(`only literal arguments are allowed, not ${JSON.stringify(this.rest().slice(0, 20))}`);
    this.at += word[0].length;
    return word[0] === "True" ? true : word[0] === "False" ? false : word[0] === "None" ? null : Number(word[0]);
  }

  private string(quote: string): string {
    this.at++;
    let out = "";
    for (;;) {
      const c = this.text[this.at++];
      if (c === undefined) throw new Error("an unterminated string");
      if (c === quote) return out;
      if (c === "\\") {
        const e = this.text[this.at++];
        out += e === "n" ? "\n" : e === "t" ? "\t" : (e ?? "");
      } else out += c;
    }
  }

  private list(close: string): Literal[] {
    this.at++;
    const items: Literal[] = [];
    this.space();
    while (this.text[this.at] !== close) {
      items.push(this.literal());
      this.space();
      if (this.text[this.at] === ",") this.at++;
      else if (this.text[this.at] !== close) throw new Error(`expected "," or ${JSON.stringify(close)}`);
      this.space();
    }
    this.at++;
    return items;
  }
}
