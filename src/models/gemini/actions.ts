// Translates Gemini's predefined computer-use functions into our actions. Two sets exist, chosen
// by model name in the provider table: `2025` (Gemini 2.5's computer-use model and Gemini 3
// Flash: click_at, type_text_at, scroll_document…) and `2026` (Gemini 3.5 Flash: click, type,
// hotkey, scroll with a pixel magnitude, button and key presses held apart, a desktop set). Points
// are on the 0–999 grid over the image sent (perception/grids.ts `norm999`); one function may
// become a sequence (type_text_at is a click, an optional clearing, the typing and an optional
// Enter), carried out one step each. What does not fit is refused with a reason the model reads.
import { normalizeChord } from "../../protocol/keys.ts";
import type { Point, Size } from "../../perception/coordinates.ts";
import { gridOf } from "../../perception/grids.ts";
import { actionSchema, MAX_WAIT_MS, type Action } from "../../protocol/index.ts";

export type ActionSet = "2025" | "2026";

/** The 2025 functions only a browser can carry out: excluded on a desktop, which that set has no environment for. */
export const BROWSER_ONLY = ["open_web_browser", "navigate", "go_back", "go_forward", "search"] as const;

/** Where the model's `search` starts, as Google's reference client does it. */
export const SEARCH_HOME = "https://www.google.com";

const GRID = gridOf("norm999");
/** scroll_at's magnitude when the model names none, on the grid (the reference's default). */
const DEFAULT_MAGNITUDE = 800;
/** scroll's magnitude_in_pixels when the model names none (the reference's default). */
const DEFAULT_PIXELS = 300;
const WAIT_MS = 5000;

export type Translated =
  /** The steps to carry out, in order; `focusFirst` marks a click that only puts the caret in the field typed into next. */
  | { kind: "act"; actions: Action[]; focusFirst: boolean }
  /** Nothing to do: the function is answered with the screen as it is. */
  | { kind: "screenshot" }
  /** The mouse button goes down or up here (2026's mouse_down and mouse_up): the adapter makes a click or a drag of the pair. */
  | { kind: "press" | "release"; at: Point }
  /** A key goes down or up (2026's key_down and key_up): the adapter presses the chord when every key is up again. */
  | { kind: "key_down" | "key_up"; key: string }
  | { kind: "refuse"; reason: string };

export function translate(name: string, args: Record<string, unknown>, image: Size, intent: string, set: ActionSet = "2025"): Translated {
  const common = { intent, requires_verification: false };
  const at = () => point(args, "x", "y", image);
  const steps = (raw: unknown[], focusFirst = false): Translated => {
    const actions: Action[] = [];
    for (const step of raw) {
      const parsed = actionSchema.safeParse({ ...(step as object), ...common });
      if (!parsed.success) return { kind: "refuse", reason: `invalid ${name}: ${parsed.error.issues[0]?.message}` };
      actions.push(parsed.data);
    }
    return { kind: "act", actions, focusFirst };
  };
  try {
    const shared = sharedFunction(name, args, image, at, steps);
    if (shared) return shared;
    return set === "2026" ? function2026(name, args, image, at, steps) : function2025(name, args, image, at, steps);
  } catch (error) {
    return { kind: "refuse", reason: (error as Error).message };
  }
}

type Steps = (raw: unknown[], focusFirst?: boolean) => Translated;

/** The functions both sets name alike. */
function sharedFunction(name: string, args: Record<string, unknown>, image: Size, at: () => Point, steps: Steps): Translated | null {
  switch (name) {
    case "navigate":
      return steps([{ type: "navigate", args: { url: String(args.url ?? "") } }]);
    case "go_back":
      return steps([{ type: "keypress", args: { keys: ["Alt", "ArrowLeft"] } }]);
    case "go_forward":
      return steps([{ type: "keypress", args: { keys: ["Alt", "ArrowRight"] } }]);
    case "drag_and_drop": {
      // 2026 names both ends start_/end_; 2025 the start x/y and the end destination_x/_y.
      const start = "start_x" in args ? point(args, "start_x", "start_y", image) : at();
      const end = "end_x" in args ? point(args, "end_x", "end_y", image) : point(args, "destination_x", "destination_y", image);
      return steps([{ type: "drag", args: { ...start, end_x: end.x, end_y: end.y } }]);
    }
    default:
      return null;
  }
}

function function2025(name: string, args: Record<string, unknown>, image: Size, at: () => Point, steps: Steps): Translated {
  switch (name) {
    case "open_web_browser":
      return { kind: "screenshot" };
    case "click_at":
      return steps([{ type: "click", args: { ...at(), button: "left" } }]);
    case "hover_at":
      return steps([{ type: "move", args: at() }]);
    case "type_text_at": {
      const text = String(args.text ?? "");
      // Google's reference clears the field unless told not to, and presses Enter only when told.
      const clear = args.clear_before_typing !== false;
      const enter = args.press_enter === true;
      return steps(
        [
          { type: "click", args: { ...at(), button: "left" } },
          ...(clear ? [{ type: "keypress", args: { keys: ["Control", "a"] } }, { type: "keypress", args: { keys: ["Delete"] } }] : []),
          ...(text ? [{ type: "type", args: { text } }] : []),
          ...(enter ? [{ type: "keypress", args: { keys: ["Enter"] } }] : []),
        ],
        true,
      );
    }
    case "scroll_document": {
      const direction = String(args.direction ?? "");
      if (direction === "down" || direction === "up") return steps([{ type: "keypress", args: { keys: [direction === "down" ? "PageDown" : "PageUp"] } }]);
      // Sideways, half the screen, at its middle (no key scrolls a page sideways by a screen).
      const half = Math.round(image.width / 2);
      const middle = { x: Math.floor(image.width / 2), y: Math.floor(image.height / 2) };
      if (direction === "left" || direction === "right") return steps([{ type: "scroll", args: { ...middle, scroll_x: direction === "left" ? -half : half, scroll_y: 0 } }]);
      return { kind: "refuse", reason: `direction must be up, down, left or right, not ${JSON.stringify(direction)}` };
    }
    case "scroll_at": {
      const magnitude = args.magnitude === undefined ? DEFAULT_MAGNITUDE : Number(args.magnitude);
      if (!Number.isFinite(magnitude) || magnitude < 0 || magnitude > 1000) return { kind: "refuse", reason: "magnitude must be between 0 and 1000" };
      // The magnitude is on the grid too: a thousandth of the image's height (or width) a step.
      const length = { x: Math.min(image.width - 1, Math.round((magnitude * image.width) / 1000)), y: Math.min(image.height - 1, Math.round((magnitude * image.height) / 1000)) };
      return scroll(at(), String(args.direction ?? ""), length, steps);
    }
    case "key_combination":
      return steps([{ type: "keypress", args: { keys: normalizeChord(String(args.keys ?? "").split("+").filter(Boolean)) } }]);
    case "search":
      return steps([{ type: "navigate", args: { url: SEARCH_HOME } }]);
    case "wait_5_seconds":
      return steps([{ type: "wait", args: { ms: WAIT_MS } }]);
    default:
      return { kind: "refuse", reason: `the function ${JSON.stringify(name)} is not supported here` };
  }
}

function function2026(name: string, args: Record<string, unknown>, image: Size, at: () => Point, steps: Steps): Translated {
  switch (name) {
    case "take_screenshot":
      return { kind: "screenshot" };
    case "click":
      return steps([{ type: "click", args: { ...at(), button: "left" } }]);
    case "middle_click":
      return steps([{ type: "click", args: { ...at(), button: "middle" } }]);
    case "double_click":
    case "triple_click":
    case "right_click":
      return steps([{ type: name, args: at() }]);
    case "move":
      return steps([{ type: "move", args: at() }]);
    case "mouse_down":
      return { kind: "press", at: at() };
    case "mouse_up":
      return { kind: "release", at: at() };
    case "type": {
      const text = String(args.text ?? "");
      if (!text) return { kind: "refuse", reason: "text must not be empty" };
      return steps([{ type: "type", args: { text } }, ...(args.press_enter === true ? [{ type: "keypress", args: { keys: ["Enter"] } }] : [])]);
    }
    case "press_key":
      return steps([{ type: "keypress", args: { keys: normalizeChord([String(args.key ?? "")]) } }]);
    case "hotkey": {
      const keys = Array.isArray(args.keys) ? args.keys.map(String) : String(args.keys ?? "").split("+");
      return steps([{ type: "keypress", args: { keys: normalizeChord(keys.filter(Boolean)) } }]);
    }
    case "key_down":
    case "key_up": {
      const key = String(args.key ?? "");
      if (!key) return { kind: "refuse", reason: "key must name a key" };
      return { kind: name, key };
    }
    case "wait": {
      const seconds = args.seconds === undefined ? 1 : Number(args.seconds);
      if (!Number.isFinite(seconds) || seconds < 0) return { kind: "refuse", reason: "seconds must be a number of seconds" };
      return steps([{ type: "wait", args: { ms: Math.min(MAX_WAIT_MS, Math.round(seconds * 1000)) } }]);
    }
    case "scroll": {
      const pixels = args.magnitude_in_pixels === undefined ? DEFAULT_PIXELS : Number(args.magnitude_in_pixels);
      if (!Number.isFinite(pixels) || pixels < 0 || pixels > 999) return { kind: "refuse", reason: "magnitude_in_pixels must be between 0 and 999" };
      return scroll(at(), String(args.direction ?? ""), { x: Math.round(pixels), y: Math.round(pixels) }, steps);
    }
    default:
      return { kind: "refuse", reason: `the function ${JSON.stringify(name)} is not supported here` };
  }
}

function scroll(from: Point, direction: string, length: Point, steps: Steps): Translated {
  const delta = { up: [0, -length.y], down: [0, length.y], left: [-length.x, 0], right: [length.x, 0] }[direction];
  if (!delta) return { kind: "refuse", reason: `direction must be up, down, left or right, not ${JSON.stringify(direction)}` };
  return steps([{ type: "scroll", args: { ...from, scroll_x: delta[0], scroll_y: delta[1] } }]);
}

/** A grid point from two arguments, in the image's pixels; off the grid is refused. */
function point(args: Record<string, unknown>, xKey: string, yKey: string, image: Size): Point {
  const x = args[xKey];
  const y = args[yKey];
  if (typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x) || !Number.isFinite(y)) throw new Error(`${xKey} and ${yKey} must be numbers`);
  if (x < 0 || y < 0 || x > 999 || y > 999) throw new Error(`(${x}, ${y}) is off the 0–999 grid`);
  return GRID.toPixels({ x, y }, image);
}
