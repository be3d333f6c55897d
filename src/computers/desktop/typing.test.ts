// How text is cut for the desktop: keys for what the keyboard map types well, a paste for CJK and
// what lies past it, and the keys that paste in the focused program.
import { describe, expect, it } from "vitest";
import { keysAndPastes, pasteKeys } from "./typing.ts";

describe("text on the X desktop", () => {
  it("types ASCII, shifted symbols and accents as keys, and pastes CJK and emoji", () => {
    expect(keysAndPastes("Hello, World! 你好 @#$%^&*()")).toEqual([
      { text: "Hello, World! ", via: "keys" },
      { text: "你好", via: "paste" },
      { text: " @#$%^&*()", via: "keys" },
    ]);
    expect(keysAndPastes("déjà vu — €5\n")).toEqual([{ text: "déjà vu — €5\n", via: "keys" }]);
    expect(keysAndPastes("こんにちは、세계 😀")).toEqual([
      { text: "こんにちは、세계", via: "paste" },
      { text: " ", via: "keys" },
      { text: "😀", via: "paste" },
    ]);
    expect(keysAndPastes("")).toEqual([]);
  });

  it("pastes with Shift+Insert in xterm, which pastes the primary selection, and with Ctrl+V elsewhere", () => {
    expect(pasteKeys("XTerm")).toEqual(["Shift", "Insert"]);
    expect(pasteKeys("Mousepad")).toEqual(["Control", "v"]);
    expect(pasteKeys(null)).toEqual(["Control", "v"]);
  });
});
