// Reads the locator code Playwright writes for an element (`locator.normalize().toString()`, e.g.
// `locator('iframe[title="Inner form"]').contentFrame().getByRole('button', { name: 'Send' })`)
// back into a Locator, to find a recorded element again on replay. A whitelist parser: known
// methods with literal arguments only — nothing in a recording is ever evaluated as code.
import type { FrameLocator, Locator, Page } from "playwright-core";
import { AppError } from "../../core/errors.ts";

type Value = string | number | boolean | RegExp | { [key: string]: Value };
interface Call {
  method: string;
  args: Value[];
}

const STRING_ARG = new Set(["getByText", "getByLabel", "getByPlaceholder", "getByAltText", "getByTitle", "getByTestId"]);
const OPTION_KEYS = new Set(["name", "exact", "hasText", "hasNotText", "level", "checked", "pressed", "selected", "expanded", "disabled", "includeHidden"]);

export function parseLocatorCode(code: string): Call[] {
  const calls: Call[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new AppError("INVALID_TARGET", `Not locator code (${why} at ${i}): ${code.slice(0, 120)}`);
  };
  const space = () => {
    while (/\s/.test(code[i] ?? "")) i++;
  };
  const expect = (char: string) => {
    space();
    if (code[i] !== char) fail(`expected ${char}`);
    i++;
  };
  const value = (): Value => {
    space();
    const c = code[i];
    if (c === "'" || c === '"') {
      const quote = c;
      let out = "";
      for (i++; code[i] !== quote; i++) {
        if (i >= code.length) fail("unterminated string");
        if (code[i] !== "\\") {
          out += code[i];
          continue;
        }
        // Playwright writes strings with JSON's escapes.
        const next = code[++i] ?? "";
        if (next === "u") {
          const hex = code.slice(i + 1, i + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
        } else {
          out += ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" } as Record<string, string>)[next] ?? next;
        }
      }
      i++;
      return out;
    }
    if (c === "/") {
      let close = i + 1;
      while (close < code.length && code[close] !== "/") close += code[close] === "\\" ? 2 : 1;
      if (close >= code.length) fail("unterminated regular expression");
      const flags = /^[dgimsuvy]*/.exec(code.slice(close + 1))![0];
      const source = code.slice(i + 1, close);
      i = close + 1 + flags.length;
      return new RegExp(source, flags);
    }
    if (c === "{") {
      i++;
      const object: { [key: string]: Value } = {};
      for (space(); code[i] !== "}"; space()) {
        const key = /^[A-Za-z]+/.exec(code.slice(i))?.[0] ?? fail("expected an option name");
        if (!OPTION_KEYS.has(key)) fail(`unknown option ${key}`);
        i += key.length;
        expect(":");
        object[key] = value();
        space();
        if (code[i] === ",") i++;
      }
      i++;
      return object;
    }
    const word = /^(true|false|-?\d+)/.exec(code.slice(i))?.[0] ?? fail("expected a value");
    i += word.length;
    return word === "true" ? true : word === "false" ? false : Number(word);
  };
  for (space(); i < code.length; space()) {
    if (calls.length > 0) expect(".");
    space();
    const method = /^[A-Za-z]+/.exec(code.slice(i))?.[0] ?? fail("expected a method");
    i += method.length;
    expect("(");
    const args: Value[] = [];
    for (space(); code[i] !== ")"; space()) {
      args.push(value());
      space();
      if (code[i] === ",") i++;
    }
    i++;
    calls.push({ method, args });
  }
  if (calls.length === 0) fail("empty");
  return calls;
}

/** The Locator the code names, built by calling the whitelisted methods on the page. */
export function locatorFromCode(page: Page, code: string): Locator {
  let at: Page | Locator | FrameLocator = page;
  for (const { method, args } of parseLocatorCode(code)) at = apply(at, method, args, code);
  if (!("normalize" in at)) throw new AppError("INVALID_TARGET", `Locator code that ends in a frame, not an element: ${code}`);
  return at;
}

function apply(at: Page | Locator | FrameLocator, method: string, args: Value[], code: string): Page | Locator | FrameLocator {
  const [first, second] = args;
  const text = (v: Value | undefined) => (typeof v === "string" || v instanceof RegExp ? v : bad());
  const options = (v: Value | undefined) => (v === undefined ? {} : typeof v === "object" && !(v instanceof RegExp) ? v : bad());
  const bad = (): never => {
    throw new AppError("INVALID_TARGET", `Locator code with a call this reader does not take (${method}): ${code}`);
  };
  if (method === "getByRole") return at.getByRole(text(first) as Parameters<Page["getByRole"]>[0], options(second));
  if (STRING_ARG.has(method)) return (at as Locator)[method as "getByText"](text(first), options(second));
  if (method === "locator") return at.locator(typeof first === "string" ? first : bad(), options(second));
  if (!("contentFrame" in at)) return bad();
  const locator = at;
  switch (method) {
    case "contentFrame":
      return locator.contentFrame();
    case "filter":
      return locator.filter(options(first));
    case "first":
      return locator.first();
    case "last":
      return locator.last();
    case "nth":
      return locator.nth(typeof first === "number" ? first : bad());
    default:
      return bad();
  }
}
