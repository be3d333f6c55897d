// Text typed on an X desktop, each part the way it types best: ASCII, shifted symbols and accents
// as keys through XTest (the keyboard map, with spare keycodes for what it lacks); CJK and the
// scripts and symbols past it as a paste from the clipboard, as seed 002 does — one paste however
// long the run, and no keysyms that programs with an input method may take differently.
import type { Progress } from "../../core/progress.ts";
import type { Clipboard } from "./clipboard.ts";
import type { Keyboard } from "./keyboard.ts";

/** From the CJK radicals on (Han, kana, Hangul, fullwidth forms, …), and every character past the Basic Multilingual Plane (emoji). */
const PASTED_FROM = 0x2e80;

export interface TextRun {
  text: string;
  via: "keys" | "paste";
}

/** The text cut into runs typed the same way, in order. */
export function keysAndPastes(text: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const char of text) {
    const via = char.codePointAt(0)! >= PASTED_FROM ? "paste" : "keys";
    const last = runs.at(-1);
    if (last?.via === via) last.text += char;
    else runs.push({ text: char, via });
  }
  return runs;
}

/** The keys that paste in a program: xterm pastes the primary selection with Shift+Insert; the rest paste the clipboard with Ctrl+V. */
export function pasteKeys(app: string | null): string[] {
  return app === "XTerm" ? ["Shift", "Insert"] : ["Control", "v"];
}

/** Types the text into the focused window; `focusedApp` names its program (WM_CLASS) when a run is pasted. */
export async function typeText(text: string, keyboard: Keyboard, clipboard: Clipboard, focusedApp: () => Promise<string | null>, progress?: Progress): Promise<void> {
  for (const run of keysAndPastes(text)) {
    progress?.check();
    if (run.via === "keys") await keyboard.type(run.text, progress);
    else await clipboard.paste(run.text, async () => keyboard.press(pasteKeys(await focusedApp())));
  }
}
