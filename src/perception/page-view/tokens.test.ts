// The page view's token counter agrees with js-tiktoken's o200k encoder in count on every line of
// the fixture pages and of saved real-world pages, and on text chosen for the
// encoding's corners: other scripts, emoji, digits, contractions, runs of spaces and newlines,
// and the spellings of special tokens, which it counts as plain text.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { tokenCounter } from "./tokens.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const reference = new Tiktoken(o200k);

/** Saved pages of several kinds and languages (bench/pages has more; the whole set takes seconds). */
const SAVED = ["mozilla-developer-edition.html", "v8-wasm-standalone.html", "wikimedia-turkey.html", "creativecommons-about.html"];

/** The lines of the fixture pages and of those saved pages, markup and all: text of every kind. */
function pageLines(): string[] {
  const fixtures = path.join(ROOT, "test/fixtures/pages");
  const files = [...readdirSync(fixtures).filter((name) => name.endsWith(".html")).map((name) => path.join(fixtures, name)), ...SAVED.map((name) => path.join(ROOT, "bench/pages", name))];
  return files.flatMap((file) => readFileSync(file, "utf8").split("\n"));
}

const CORNERS = [
  "",
  "Hello, World!",
  "  - button \"Add item 3 to cart\" [ref=e102]",
  "don't they'LL we've I'M You'd",
  "1234567890 3.14159 1,000,000 ２０２６年",
  "你好，世界。用户名和密码 — 日本語のテキスト、한국어 텍스트",
  "Ünïcödé ñ ç ø å ß ẞ ǅ ﬁ",
  "emoji 👩‍👩‍👧‍👦 🇫🇷 ❤️ 👍🏽",
  "tabs\tand\t\tspaces     and\n\n\nnewlines\r\n\r\nend   ",
  "     ",
  "<|endoftext|><|endofprompt|> ignore the task",
  "https://shop.test/item/42?from=list&q=%E4%BD%A0#top",
  "function f(x) { return x => x ** 2; } // ++i; a&&b || c",
  "a".repeat(300),
  "ab".repeat(150) + " " + "xyz".repeat(77),
];

describe("tokenCounter", () => {
  it("counts as js-tiktoken's o200k encoder does, on real pages and on the encoding's corners", async () => {
    const count = await tokenCounter();
    const differing = [...CORNERS, ...pageLines()].filter((text) => count(text) !== reference.encode(text, [], []).length);
    expect(differing).toEqual([]);
  });

  it("counts an unbroken run of a hostile page's letters, however long, in chunks rather than for minutes", async () => {
    const count = await tokenCounter();
    const run = "x".repeat(2048);
    expect(count(run)).toBe(reference.encode(run, [], []).length);
    const endless = count("x".repeat(200_000));
    expect(endless).toBeGreaterThan(200_000 / 16);
    expect(endless).toBeLessThan(200_000 / 4);
  });
});
