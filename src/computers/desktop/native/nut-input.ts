// How our inputs become nut-js calls, with nothing loaded: points of the capture onto the screen's
// points (a Retina capture has twice as many pixels), key names (computers/keys.ts) onto nut-js's
// Key enum, text split where a key must be pressed instead, and wheel amounts in each platform's
// own unit. The enum comes in as a value, so this file never loads the native module.
import type { Key } from "@nut-tree-fork/nut-js";
import { convert, type Point, type Size, type Spaces } from "../../../perception/coordinates.ts";
import { normalizeChord } from "../../../protocol/keys.ts";
import { checkOnScreen, wheelNotches } from "../desktop-input.ts";

export type KeyEnum = typeof Key;
type KeyName = keyof KeyEnum;

/** The two spaces of a native screen: the capture's pixels, and the points input is given in. */
export class NativeSpaces {
  private readonly spaces: Spaces;

  constructor(capture: Size, points: Size) {
    this.spaces = { screenshot: capture, logical: points, model: capture };
  }

  /** A point of the capture as screen points; a point off the capture is refused. */
  toPoints(x: number, y: number): Point {
    checkOnScreen(x, y, this.spaces.screenshot);
    return convert({ x, y }, this.spaces, "screenshot", "logical");
  }

  /** Screen points (where the pointer is) as a point of the capture. */
  toCapture(point: Point): Point {
    return convert({ x: point.x, y: point.y }, this.spaces, "logical", "screenshot");
  }

  /** How many points one pixel of the capture spans on each axis. */
  get pointsPerPixel(): Point {
    return { x: this.spaces.logical.width / this.spaces.screenshot.width, y: this.spaces.logical.height / this.spaces.screenshot.height };
  }
}

/** Our canonical key names (W3C) that are not a letter, a digit or F1–F24, as nut-js names them. */
const NAMED: Record<string, KeyName> = {
  Control: "LeftControl",
  Shift: "LeftShift",
  Alt: "LeftAlt",
  // Command on macOS, the Windows key on Windows.
  Meta: "LeftSuper",
  Enter: "Enter",
  Tab: "Tab",
  Escape: "Escape",
  " ": "Space",
  Backspace: "Backspace",
  Delete: "Delete",
  Insert: "Insert",
  Home: "Home",
  End: "End",
  PageUp: "PageUp",
  PageDown: "PageDown",
  ArrowUp: "Up",
  ArrowDown: "Down",
  ArrowLeft: "Left",
  ArrowRight: "Right",
  CapsLock: "CapsLock",
  NumLock: "NumLock",
  ScrollLock: "ScrollLock",
  Pause: "Pause",
  PrintScreen: "Print",
  ContextMenu: "Menu",
  // The keypad's plus: `plus` in a chord (ctrl+plus) means the key, not a shifted `=`.
  "+": "Add",
  "-": "Minus",
  "=": "Equal",
  "`": "Grave",
  "[": "LeftBracket",
  "]": "RightBracket",
  "\\": "Backslash",
  ";": "Semicolon",
  "'": "Quote",
  ",": "Comma",
  ".": "Period",
  "/": "Slash",
};
const MODIFIERS: ReadonlySet<string> = new Set(["Control", "Shift", "Alt", "Meta"]);

/** The nut-js key of one of our canonical key names (`normalizeKey`'s); null when the keyboard has none. */
export function nutKeyOf(key: string, keys: KeyEnum): Key | null {
  const named = NAMED[key];
  if (named) return keys[named];
  if (/^[a-z]$/i.test(key)) return keys[key.toUpperCase() as KeyName];
  if (/^\d$/.test(key)) return keys[`Num${key}` as KeyName];
  if (/^F([1-9]|1\d|2[0-4])$/.test(key)) return keys[key as KeyName];
  return null;
}

/** A chord as nut-js takes it: its keys, or text for a lone character no key carries (`!`, `é`), or the key it lacks. */
export type NutChord = { type: "keys"; keys: Key[] } | { type: "text"; text: string } | { type: "missing"; key: string };

/** Modifiers first: nut-js holds the others while it taps the last key. */
export function nutChord(keys: string[], enumeration: KeyEnum): NutChord {
  const chord = normalizeChord(keys);
  const ordered = [...chord.filter((k) => MODIFIERS.has(k)), ...chord.filter((k) => !MODIFIERS.has(k))];
  const mapped: Key[] = [];
  for (const name of ordered) {
    const key = nutKeyOf(name, enumeration);
    if (key !== null) mapped.push(key);
    else if (chord.length === 1 && [...name].length === 1) return { type: "text", text: name };
    else return { type: "missing", key: name };
  }
  return { type: "keys", keys: mapped };
}

export type TypingRun = { type: "text"; text: string } | { type: "key"; key: "Enter" | "Tab" };

/** Text as runs to type and the keys between them: a line break is Enter and a tab is Tab, as on a keyboard. */
export function typingRuns(text: string): TypingRun[] {
  const runOf = (part: string): TypingRun => (part === "\n" ? { type: "key", key: "Enter" } : part === "\t" ? { type: "key", key: "Tab" } : { type: "text", text: part });
  return text
    .replace(/\r\n?/g, "\n")
    .split(/([\n\t])/)
    .filter((part) => part !== "")
    .map(runOf);
}

/**
 * How much to ask nut-js to scroll for so many screenshot pixels on one axis: macOS scrolls in
 * points (`pointsPerPixel` maps the capture's pixels onto them), Windows in wheel units of 120 a
 * notch, X11 in notches.
 */
export function wheelAmount(pixels: number, pointsPerPixel: number, platform: NodeJS.Platform): number {
  if (platform === "darwin") return pixels === 0 ? 0 : Math.max(1, Math.round(Math.abs(pixels) * pointsPerPixel));
  return wheelNotches(pixels) * (platform === "win32" ? 120 : 1);
}
