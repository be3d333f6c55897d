// Secrets a task names as `%name%` (a password, a card number): the model reads and writes only the
// placeholder; the value is put in at the last moment, where the computer types, and is taken
// out of anything the model reads afterwards. Values come from a JSON file (SECRETS_FILE) and
// from SECRET_<NAME> environment variables, the name in lower case.
import { readFileSync } from "node:fs";
import { z } from "zod";

const NAME = /%([A-Za-z_][A-Za-z0-9_]*)%/g;

const secretValues = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a secret's name is letters, digits and _"), z.string().min(1));

/** SECRETS_FILE: the path of a JSON object of name → value. */
export const secretsFileSchema = z.preprocess((value, ctx) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(readFileSync(value, "utf8"));
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `${value} is not a readable JSON object: ${(error as Error).message}` });
    return z.NEVER;
  }
}, secretValues);

/** The SECRET_<NAME> variables of an environment, as name → value. */
export function secretsFromEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).flatMap(([key, value]) => (key.startsWith("SECRET_") && value ? [[key.slice(7).toLowerCase(), value]] : [])));
}

export class Secrets {
  private readonly shown = new Set<string>();

  constructor(private readonly values: Readonly<Record<string, string>>) {}

  /**
   * The same values, none revealed yet: each computer holds its own, so that a secret one task
   * typed is looked for on that task's pages only.
   */
  fresh(): Secrets {
    return new Secrets(this.values);
  }

  /** The known secrets a text names. */
  named(text: string): string[] {
    return [...text.matchAll(NAME)].map((m) => m[1]!).filter((name) => Object.hasOwn(this.values, name));
  }

  /** The text with each known placeholder replaced by its value; unknown ones stay as written. */
  reveal(text: string): string {
    return text.replace(NAME, (whole, name: string) => {
      if (!Object.hasOwn(this.values, name)) return whole;
      this.shown.add(this.values[name]!);
      return this.values[name]!;
    });
  }

  /** The values revealed so far: a page may show them anywhere from then on, so screenshots look for them. */
  get revealed(): readonly string[] {
    return [...this.shown];
  }

  /** Every string in a value (a tool's result, a page's tree) concealed, at any depth. */
  concealAll<T>(value: T): T {
    return mapStrings(value, (text) => this.conceal(text));
  }

  /** The text with every value put back as its placeholder: what the model and the logs may read. */
  conceal(text: string): string {
    let out = text;
    for (const [name, value] of Object.entries(this.values).sort((a, b) => b[1].length - a[1].length)) {
      for (const form of writtenForms(value)) out = out.split(form).join(`%${name}%`);
    }
    return out;
  }
}

/**
 * The ways an address may write a value: as it is, encoded as a URL's part (`%20`) or as a form's
 * field (`+`, and `!'()*~` escaped too, as a GET form sends it), with its escapes in either case.
 */
function writtenForms(value: string): Set<string> {
  const component = encodeURIComponent(value);
  const form = new URLSearchParams([["", value]]).toString().slice(1);
  const encoded = [component, component.replace(/%20/g, "+"), form];
  return new Set([value, ...encoded, ...encoded.map((text) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()))]);
}

/** `value` with every string in it, at any depth, passed through `text`. */
export function mapStrings<T>(value: T, text: (s: string) => string): T {
  if (typeof value === "string") return text(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, text)) as T;
  if (value === null || typeof value !== "object" || Buffer.isBuffer(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, text)])) as T;
}
