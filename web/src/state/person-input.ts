// The person's input on the live screen, as the API takes it: a click or wheel at pixels of the
// frame they see, a key chord, or typed characters. Pure, so the mapping is tested on its own;
// ScreenWindow feeds it browser events and sends what comes out, in order.
import type { PersonInputBody } from "../protocol.ts";

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A point of the element showing the frame (it has the frame's aspect ratio) in frame pixels. */
export function framePoint(rect: Rect, clientX: number, clientY: number, frame: { width: number; height: number }): { x: number; y: number } {
  const fx = (clientX - rect.left) / rect.width;
  const fy = (clientY - rect.top) / rect.height;
  const clamp = (value: number, max: number) => Math.min(Math.max(Math.round(value), 0), max - 1);
  return { x: clamp(fx * frame.width, frame.width), y: clamp(fy * frame.height, frame.height) };
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

const MODIFIERS = new Set(["Control", "Alt", "Meta", "Shift", "AltGraph", "CapsLock", "Fn", "OS"]);

/**
 * A key press as input: a character typed as text, anything else (Enter, arrows, a chord with
 * Ctrl, Alt or Meta) as a chord. Null for what goes nowhere: a modifier alone, an IME's
 * composition, and Tab, which moves the focus out of the screen as everywhere else in the page.
 */
export function keyInput(event: KeyLike): PersonInputBody | null {
  const { key } = event;
  if (MODIFIERS.has(key) || key === "Dead" || key === "Process" || key === "Unidentified" || key === "Tab") return null;
  const mods = [...(event.ctrlKey ? ["Control"] : []), ...(event.altKey ? ["Alt"] : []), ...(event.metaKey ? ["Meta"] : [])];
  if (mods.length > 0) return { kind: "key", keys: [...mods, ...(event.shiftKey ? ["Shift"] : []), key.length === 1 ? key.toLowerCase() : key] };
  if ([...key].length === 1) return { kind: "type", text: key };
  return { kind: "key", keys: [...(event.shiftKey ? ["Shift"] : []), key] };
}

/**
 * The queue's next request: typed characters waiting one after another go as one text, and
 * wheel turns one after another as one scroll.
 */
export function nextBatch(queue: PersonInputBody[]): { input: PersonInputBody; taken: number } | null {
  const first = queue[0];
  if (!first) return null;
  if (first.kind === "scroll") {
    let taken = 1;
    let dx = first.delta_x ?? 0;
    let dy = first.delta_y ?? 0;
    for (const next of queue.slice(1)) {
      if (next.kind !== "scroll") break;
      dx += next.delta_x ?? 0;
      dy += next.delta_y ?? 0;
      taken += 1;
    }
    const clamp = (d: number) => Math.max(-5_000, Math.min(5_000, Math.round(d)));
    return { input: { ...first, delta_x: clamp(dx), delta_y: clamp(dy) }, taken };
  }
  if (first.kind !== "type") return { input: first, taken: 1 };
  let text = first.text;
  let taken = 1;
  for (const next of queue.slice(1)) {
    if (next.kind !== "type" || text.length + next.text.length > 2_000) break;
    text += next.text;
    taken += 1;
  }
  return { input: { kind: "type", text }, taken };
}
